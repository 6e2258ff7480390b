// WordPress's global parameters, applied after a route answered: `_fields` trimming, `_embed`
// of linked resources, and `_envelope`.
import type { RouterContext } from "../../graph.ts";
import type { SiteRest } from "./dispatch.ts";

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

/** Adds `_embedded` to an item: each embeddable link fetched as the caller, in `embed` context. */
export async function embedLinks(item: Json, rels: string[] | "all", site: SiteRest, context: RouterContext, cache: Map<string, unknown>): Promise<Json> {
  const links = item._links as Record<string, Link[]> | undefined;
  if (!links) return item;
  const embedded: Record<string, unknown[]> = {};
  for (const [rel, list] of Object.entries(links)) {
    if (rels !== "all" && !rels.includes(rel)) continue;
    const entries: unknown[] = [];
    for (const link of list) {
      if (!link.embeddable) { entries.push([]); continue; }
      if (!cache.has(link.href)) cache.set(link.href, await fetchEmbedded(link.href, site, context));
      entries.push(cache.get(link.href));
    }
    if (entries.some((e) => !(Array.isArray(e) && e.length === 0))) embedded[rel] = entries;
  }
  return Object.keys(embedded).length ? { ...item, _embedded: embedded } : item;
}

async function fetchEmbedded(href: string, site: SiteRest, context: RouterContext): Promise<unknown> {
  const base = site.urls.restBase;
  if (!href.startsWith(base)) return [];
  const url = new URL(href);
  const path = href.slice(base.length).split("?")[0] || "/";
  const query: Record<string, unknown> = Object.fromEntries(url.searchParams);
  query.context ??= "embed";
  const match = site.table.match(path, "GET");
  // A link to a route this site does not serve (comments) embeds as nothing, like an empty collection.
  if (!match?.endpoint) return [];
  const perPage = match?.endpoint?.args.per_page;
  if (perPage?.maximum !== undefined && query.per_page === undefined) query.per_page = String(perPage.maximum);
  const { result } = await site.dispatch({ method: "GET", path, query, headers: {} }, context);
  return result.body;
}
