// block-editor/v1/url-details (WordPress core's WP_REST_URL_Details_Controller): fetch a page
// through the outbound client (150 KB at most, WordPress's WP-URLDetails user agent), keep its body
// for an hour per address (not failures: they may be temporary), and read its head: the first
// <title>, the first <link rel="icon">, the first description meta, the first og:image, stopping at
// <body>. Entities are decoded and tags stripped; icon and image addresses are made absolute.
import { Parser } from "htmlparser2";
import { can } from "../../../lib/capabilities.ts";
import { fail } from "../../../lib/errors.ts";
import { HttpRequestError, type HttpClient } from "../../../lib/http-client.ts";
import type { Identity } from "../../../lib/identity.ts";

export interface UrlDetails { title: string; icon: string; description: string; image: string }

/** edit_posts, or the edit capability of any post type shown in REST (pages; menu items' edit_theme_options). */
export const canViewUrlDetails = (identity: Identity): boolean =>
  ["edit_posts", "edit_pages", "edit_theme_options"].some((cap) => can(identity.site?.roles, cap, identity.site?.scope));

/** An hour (WordPress's rest_url_details_cache_expiration). */
export const URL_DETAILS_TTL_MS = 60 * 60 * 1000;
const MAX_BYTES = 150 * 1024;
const CACHE_ENTRIES = 500;

/** The fetched bodies (WordPress's site transients), with an injectable clock. */
export class PageCache {
  private readonly entries = new Map<string, { expires: number; body: string }>();
  constructor(private readonly now: () => number = Date.now) {}
  get(url: string): string | undefined {
    const hit = this.entries.get(url);
    if (hit && hit.expires > this.now()) return hit.body;
    this.entries.delete(url);
    return undefined;
  }
  set(url: string, body: string): void {
    this.entries.delete(url);
    this.entries.set(url, { expires: this.now() + URL_DETAILS_TTL_MS, body });
    if (this.entries.size > CACHE_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }
}

const caches = new WeakMap<object, PageCache>();
export function pageCacheFor(config: object): PageCache {
  let cache = caches.get(config);
  if (!cache) caches.set(config, (cache = new PageCache()));
  return cache;
}

/** wp_strip_all_tags after html_entity_decode: text without tags, trimmed. */
const prepare = (text: string) => text.replace(/<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi, "").replace(/<[^>]*>/g, "").trim();

/** WP_Http::make_absolute_url against the site's root: relative addresses are taken from the host's root. */
function absolute(href: string, pageUrl: string): string {
  if (/^data:/i.test(href)) return href;
  try {
    const root = new URL(pageUrl);
    return new URL(href, `${root.protocol}//${root.host}/`).toString();
  } catch {
    return href;
  }
}

/** find_head_information: the four members from a page's HTML. */
export function headInformation(html: string, pageUrl: string): UrlDetails {
  let title: string | undefined, icon: string | undefined, description: string | undefined, image: string | undefined;
  let inTitle = false;
  let titleText = "";
  let done = false;
  const parser = new Parser({
    onopentag(name, attributes) {
      if (done) return;
      if (name === "body") { done = true; parser.pause(); return; }
      if (name === "title" && title === undefined) { inTitle = true; titleText = ""; return; }
      if (name === "link" && icon === undefined) {
        const rel = (attributes.rel ?? "").trim();
        if ((rel === "icon" || rel === "icon shortcut" || rel === "shortcut icon") && attributes.href?.trim()) icon = absolute(attributes.href.trim(), pageUrl);
        return;
      }
      if (name === "meta") {
        const metaName = (attributes.name ?? "").trim();
        if (description === undefined && (metaName === "og:description" || metaName === "description") && attributes.content) {
          description = prepare(attributes.content.trim());
          return;
        }
        const property = (attributes.property ?? "").trim();
        if (image === undefined && (property === "og:image" || property === "og:image:url") && attributes.content?.trim()) image = absolute(attributes.content.trim(), pageUrl);
      }
    },
    ontext(text) { if (inTitle) titleText += text; },
    onclosetag(name) {
      if (name === "title" && inTitle) { inTitle = false; title = prepare(titleText.trim()); }
    },
  }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  parser.write(html);
  parser.end();
  // A <title> never closed is the rest of the document.
  if (inTitle && title === undefined) title = prepare(titleText.trim());
  return { title: title ?? "", icon: icon ?? "", description: description ?? "", image: image ?? "" };
}

export interface UrlDetailsDeps { http: HttpClient; cache: PageCache; identity: Identity; siteUrl: string }

/** block-editor/v1/url-details for one address. */
export async function urlDetails(deps: UrlDetailsDeps, raw: string): Promise<UrlDetails> {
  if (!canViewUrlDetails(deps.identity)) fail("rest_cannot_view_url_details", { signedIn: deps.identity.site !== undefined });
  const url = raw.replace(/\/+$/, "");
  if (!url) fail("rest_invalid_url", { message: "Invalid URL", status: 404 });
  let body = deps.cache.get(url);
  if (body === undefined) {
    let response;
    try {
      response = await deps.http.request(url, { maxBytes: MAX_BYTES, headers: { "user-agent": `WP-URLDetails/6.1 (+${deps.siteUrl})` } });
    } catch (error) {
      // wp_http_validate_url refuses the address before any request: an invalid parameter.
      if (error instanceof HttpRequestError && (error.reason === "unsafe_url" || error.reason === "invalid_url")) {
        fail("rest_invalid_param", { message: "Invalid parameter(s): url", data: { params: { url: "Invalid parameter." }, details: [] } });
      }
      return fail("no_response");
    }
    if (response.status !== 200) fail("no_response");
    body = response.text();
    if (!body) fail("no_content");
    deps.cache.set(url, body);
  }
  return headInformation(body, url);
}
