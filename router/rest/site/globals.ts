// WordPress's global parameters, applied after a route answered: `_fields` trimming, `_embed`
// of linked resources, and `_envelope`.
import type { RouterContext } from "../../graph.ts";
import type { Prepared, SiteRequest, SiteRest } from "./dispatch.ts";

type Json = Record<string, unknown>;

/** Field paths from `_fields` (comma/space list or array form). */
export function fieldList(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const parts = Array.isArray(value) ? value.map(String) : String(value).split(/[\s,]+/);
  return parts.map((p) => p.trim()).filter(Boolean);
}

function pick(item: Json, fields: string[]): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(item)) {
    if (key === "_links" || key === "_embedded") { out[key] = value; continue; }
    if (fields.includes(key)) { out[key] = value; continue; }
    const nested = fields.filter((f) => f.startsWith(`${key}.`)).map((f) => f.slice(key.length + 1));
    if (nested.length && value && typeof value === "object" && !Array.isArray(value)) out[key] = pick(value as Json, nested);
  }
  return out;
}

/** Keeps only the requested fields (and `_links`/`_embedded` only when asked for, or when `_fields` is absent). */
export function applyFields(body: unknown, fields: string[] | undefined, keepLinks: boolean): unknown {
  const trim = (item: unknown): unknown => {
    if (!item || typeof item !== "object" || Array.isArray(item)) return item;
    const picked = fields ? pick(item as Json, fields) : { ...(item as Json) };
    if (!keepLinks) { delete picked._links; delete picked._embedded; }
    return picked;
  };
  return Array.isArray(body) ? body.map(trim) : trim(body);
}

export const linksWanted = (fields: string[] | undefined) =>
  !fields || fields.some((f) => f.startsWith("_links") || f.startsWith("_embedded"));

interface Link { href: string; embeddable?: boolean }

/** Which rels `_embed` asks for: all (`_embed`, `_embed=1`, `=true`) or a list of compact rel names. */
export function embedRels(value: unknown): string[] | "all" | undefined {
  if (value === undefined) return undefined;
  const s = Array.isArray(value) ? value.join(",") : String(value);
  if (s === "" || s === "1" || s === "true") return "all";
  return s.split(",").map((r) => r.trim()).filter(Boolean);
}

/** The embeddable links of an item that `_embed` asks for, by rel. */
function wantedLinks(item: Json, rels: string[] | "all"): [string, Link[]][] {
  const links = item._links as Record<string, Link[]> | undefined;
  return Object.entries(links ?? {}).filter(([rel]) => rels === "all" || rels.includes(rel));
}

/**
 * Adds `_embedded` to each item: every embeddable link is fetched as the caller, in `embed`
 * context. All the distinct links of all items run as one GraphQL document, so embedding a page
 * of 100 posts costs the same number of SQL statements as embedding 10.
 */
export async function embedAll(items: Json[], rels: string[] | "all", site: SiteRest, context: RouterContext): Promise<Json[]> {
  const hrefs = [...new Set(items.flatMap((item) => wantedLinks(item, rels).flatMap(([, list]) => list.filter((l) => l.embeddable).map((l) => l.href))))];
  const fetched = new Map<string, unknown>();
  const prepared: Prepared[] = [];
  const preparedHrefs: string[] = [];
  for (const href of hrefs) {
    const request = embeddedRequest(href, site);
    // A link to a route this site does not serve (comments) embeds as nothing, like an empty collection.
    if (!request) { fetched.set(href, []); continue; }
    const outcome = site.prepare(request, context);
    if ("error" in outcome) { fetched.set(href, outcome.error.body); continue; }
    prepared.push(outcome);
    preparedHrefs.push(href);
  }
  const results = await site.runTogether(prepared, context, "query");
  results.forEach((result, i) => fetched.set(preparedHrefs[i], result.body));

  return items.map((item) => {
    const embedded: Record<string, unknown[]> = {};
    for (const [rel, list] of wantedLinks(item, rels)) {
      const entries = list.map((link) => (link.embeddable ? fetched.get(link.href) : []));
      if (entries.some((e) => !(Array.isArray(e) && e.length === 0))) embedded[rel] = entries;
    }
    return Object.keys(embedded).length ? { ...item, _embedded: embedded } : item;
  });
}

/** The GET request behind a link: `embed` context unless the link sets one, and the route's largest page. */
function embeddedRequest(href: string, site: SiteRest): SiteRequest | undefined {
  const base = site.urls.restBase;
  if (!href.startsWith(base)) return undefined;
  const url = new URL(href);
  const path = href.slice(base.length).split("?")[0] || "/";
  const match = site.table.match(path, "GET");
  if (!match?.endpoint) return undefined;
  const query: Record<string, unknown> = Object.fromEntries(url.searchParams);
  query.context ??= "embed";
  const perPage = match.endpoint.args.per_page;
  if (perPage?.maximum !== undefined && query.per_page === undefined) query.per_page = String(perPage.maximum);
  return { method: "GET", path, query, headers: {} };
}
