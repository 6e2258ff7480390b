// oembed/1.0/proxy (WordPress core's WP_oEmbed_Controller::get_proxy_item): oEmbed data of any URL
// for those who may edit posts. In WordPress's order: a cached answer for the same arguments; an
// item of this site (answered from the database, no HTTP); a sanctioned provider's endpoint, or
// the provider a page announces in its <link type="application/json+oembed"> (discovery, JSON
// preferred to XML); the provider asked with maxwidth, maxheight, url and dnt=1, in JSON and in
// XML only when JSON answers 501; the HTML rebuilt by type and, for providers that are not
// sanctioned, filtered down to a blockquote and a sandboxed iframe sharing a secret. Audio and
// video file addresses fall back to the embed handlers; anything else is oembed_invalid_url.
// Every outbound request goes through the injectable HTTP client (lib/http-client.ts).
import { Parser } from "htmlparser2";
import type { HttpClient } from "../../../lib/http-client.ts";
import { fail } from "../../../lib/errors.ts";
import type { ContentContext } from "../context.ts";
import { hasCap } from "../permissions.ts";
import { escAttr, escHtml, escUrl, kses, linkTags, type AllowedHtml } from "./html.ts";
import { embedSecret, oembedForUrl, type OEmbedData } from "./oembed.ts";
import { sanctionedEndpoint, SANCTIONED_PROVIDERS, type OEmbedProvider } from "./providers.ts";

export interface ProxyArgs { url: string; format: "json" | "xml"; maxwidth: number; maxheight: number | null; discover: boolean }

/** An answer as WordPress returns it: the provider's fields as given, `html` rebuilt (false when refused). */
export type ProxyDocument = Record<string, unknown>;

/** rest_oembed_ttl: one day. */
export const PROXY_TTL_MS = 24 * 60 * 60 * 1000;
/** How much of a page or a provider answer is read (WordPress's 150 KB limit_response_size). */
const MAX_BYTES = 150 * 1024;
/** Entries kept in memory before the oldest go (transients have no such bound; memory here does). */
const CACHE_ENTRIES = 1000;

/** The proxy's cache (WordPress's transients), per process, with an injectable clock. */
export class OEmbedCache {
  private readonly entries = new Map<string, { expires: number; value: ProxyDocument }>();
  constructor(private readonly now: () => number = Date.now, private readonly ttlMs = PROXY_TTL_MS) {}
  get(key: string): ProxyDocument | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }
  set(key: string, value: ProxyDocument): void {
    this.entries.delete(key);
    this.entries.set(key, { expires: this.now() + this.ttlMs, value });
    if (this.entries.size > CACHE_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }
}

const caches = new WeakMap<object, OEmbedCache>();
/** The proxy cache of one configured system. */
export function proxyCacheFor(config: object): OEmbedCache {
  let cache = caches.get(config);
  if (!cache) caches.set(config, (cache = new OEmbedCache()));
  return cache;
}

export interface ProxyDeps { http: HttpClient; cache: OEmbedCache; providers?: readonly OEmbedProvider[] }

/** The own-site embed as the proxy answers it (WordPress's response data, snake_case). */
export function ownEmbedDocument(data: OEmbedData): ProxyDocument {
  return {
    version: data.version, provider_name: data.providerName, provider_url: data.providerUrl, author_name: data.authorName,
    author_url: data.authorUrl, title: data.title, type: data.type, width: data.width, height: data.height, html: data.html,
    ...(data.thumbnailUrl !== null ? { thumbnail_url: data.thumbnailUrl, thumbnail_width: data.thumbnailWidth, thumbnail_height: data.thumbnailHeight } : {}),
  };
}

/** WP_oEmbed::discover: the oEmbed endpoint a page announces in its head (JSON preferred), or null. */
export async function discoverProvider(http: HttpClient, url: string): Promise<string | null> {
  let html: string;
  try {
    html = (await http.request(url, { maxBytes: MAX_BYTES })).text();
  } catch {
    return null;
  }
  const headEnd = html.toLowerCase().indexOf("</head>");
  if (headEnd > 0) html = html.slice(0, headEnd);
  const types: Record<string, "json" | "xml"> = { "application/json+oembed": "json", "text/xml+oembed": "xml", "application/xml+oembed": "xml" };
  const found: Partial<Record<"json" | "xml", string>> = {};
  for (const link of linkTags(html)) {
    const format = types[(link.type ?? "").trim()];
    if (!format || !link.href) continue;
    found[format] = link.href;
    if (format === "json") break;
  }
  return found.json ?? found.xml ?? null;
}

/** _parse_xml: the children of the root element as strings. */
function parseXml(body: string): ProxyDocument | null {
  const out: ProxyDocument = {};
  let depth = 0;
  let current: string | null = null;
  let text = "";
  let root = false;
  const parser = new Parser({
    onopentag(name) {
      depth++;
      if (depth === 1) root = true;
      if (depth === 2) { current = name; text = ""; }
    },
    ontext(t) { if (depth >= 2) text += t; },
    onclosetag() {
      if (depth === 2 && current) out[current] = text;
      depth--;
    },
  }, { xmlMode: true, decodeEntities: true });
  parser.write(body);
  parser.end();
  return root && Object.keys(out).length > 0 ? out : null;
}

/** _parse_json: an object, or nothing. */
function parseJson(body: string): ProxyDocument | null {
  try {
    const data: unknown = JSON.parse(body.trim());
    return data && typeof data === "object" && !Array.isArray(data) ? data as ProxyDocument : null;
  } catch {
    return null;
  }
}

/** WP_oEmbed::fetch: the provider's answer for the URL, JSON first, XML only after a 501. */
export async function fetchFromProvider(http: HttpClient, endpoint: string, url: string, width: number, height: number): Promise<ProxyDocument | null> {
  let base: URL;
  try {
    base = new URL(endpoint);
  } catch {
    return null;
  }
  base.searchParams.set("maxwidth", String(width));
  base.searchParams.set("maxheight", String(height));
  base.searchParams.set("url", url);
  base.searchParams.set("dnt", "1");
  for (const format of ["json", "xml"] as const) {
    const request = new URL(base);
    request.searchParams.set("format", format);
    let response;
    try {
      response = await http.request(request.toString(), { maxBytes: MAX_BYTES });
    } catch {
      return null;
    }
    if (response.status === 501) continue;
    const body = response.text();
    if (!body) return null;
    return format === "json" ? parseJson(body) : parseXml(body);
  }
  return null;
}

const str = (v: unknown): v is string => typeof v === "string" && v !== "";
const numeric = (v: unknown) => (typeof v === "number" && Number.isFinite(v)) || (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)));

/** WP_oEmbed::data2html with the iframe title filter: HTML by type, or false. */
export function data2html(data: ProxyDocument, url: string): string | false {
  let html: string | false = false;
  switch (data.type) {
    case "photo":
      if (str(data.url) && numeric(data.width) && numeric(data.height)) {
        const title = str(data.title) ? data.title : "";
        html = `<a href="${escUrl(url)}"><img src="${escUrl(data.url)}" alt="${escAttr(title)}" width="${escAttr(String(data.width))}" height="${escAttr(String(data.height))}" /></a>`;
      }
      break;
    case "video":
    case "rich":
      if (str(data.html)) html = data.html;
      break;
    case "link":
      if (str(data.title)) html = `<a href="${escUrl(url)}">${escHtml(data.title)}</a>`;
      break;
  }
  // wp_filter_oembed_iframe_title_attribute: a frame without a title gets the data's title.
  if (html && str(data.title) && /<iframe\s/i.test(html) && !/<iframe[^>]*\stitle=/i.test(html)) {
    html = html.replace(/<iframe\s/i, `<iframe title="${escAttr(data.title)}" `);
  }
  return html;
}

const UNSANCTIONED_HTML: AllowedHtml = {
  a: ["href"], blockquote: [], iframe: ["src", "width", "height", "frameborder", "marginwidth", "marginheight", "scrolling", "title"],
};

/**
 * wp_filter_oembed_result for providers that are not sanctioned: only a blockquote and a
 * sandboxed iframe survive (no iframe: refused), sharing a new secret; with a blockquote to fall
 * back on, the iframe starts hidden.
 */
export function filterUnsanctionedHtml(html: string, secret = embedSecret()): string | false {
  const cleaned = kses(html, UNSANCTIONED_HTML);
  const content = /(<blockquote>.*?<\/blockquote>)?.*(<iframe.*?><\/iframe>)/s.exec(cleaned);
  if (!content?.[2]) return false;
  let out = (content[1] ?? "") + content[2];
  const src = / src=(['"])(.*?)\1/.exec(out);
  if (src) {
    const q = src[1];
    out = out.replace(src[0], ` src=${q}${escUrl(`${src[2]}#?secret=${secret}`)}${q} data-secret=${q}${secret}${q}`);
    out = out.replace("<blockquote", `<blockquote data-secret="${secret}"`);
  }
  out = kses(out, { ...UNSANCTIONED_HTML, blockquote: ["data-secret"], iframe: [...UNSANCTIONED_HTML.iframe, "data-secret"] });
  if (content[1]) {
    out = out.replace("<iframe", '<iframe style="position: absolute; visibility: hidden;"');
    out = out.replace("<blockquote", '<blockquote class="wp-embedded-content"');
  }
  return out.replace(/<iframe/gi, '<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted"');
}

const AUDIO = /\.(mp3|ogg|flac|m4a|wav)$/i;
const VIDEO = /\.(mp4|m4v|webm|ogv|flv)$/i;

/** The embed handlers WordPress registers for media file addresses (audio and video elements). */
export function embedHandlerHtml(url: string, width: number, height: number): string | null {
  const path = (() => { try { return new URL(url).pathname; } catch { return ""; } })();
  if (AUDIO.test(path)) return `<audio class="wp-audio-shortcode" controls="controls" preload="none" src="${escUrl(url)}" style="width: 100%;"><a href="${escUrl(url)}">${escHtml(url)}</a></audio>`;
  if (VIDEO.test(path)) {
    return `<video class="wp-video-shortcode" controls="controls" preload="metadata" width="${width}" height="${height}" src="${escUrl(url)}"><a href="${escUrl(url)}">${escHtml(url)}</a></video>`;
  }
  return null;
}

/** wp_embed_defaults without a theme content width: 500 wide, so at most 750 high. */
const DEFAULT_MAXHEIGHT = Math.min(Math.ceil(500 * 1.5), 1000);

/** The proxy's answer for a URL, or oembed_invalid_url. */
export async function proxyOEmbed(ctx: ContentContext, args: ProxyArgs, deps: ProxyDeps): Promise<ProxyDocument> {
  if (!hasCap(ctx.viewer, "edit_posts")) {
    fail("rest_forbidden", { message: "Sorry, you are not allowed to make proxied oEmbed requests.", signedIn: !!ctx.viewer });
  }
  const key = JSON.stringify([args.url, args.format, args.maxwidth, args.maxheight, args.discover]);
  const cached = deps.cache.get(key);
  if (cached) return cached;

  const own = await oembedForUrl(ctx, args.url, args.maxwidth);
  if (own) return ownEmbedDocument(own);

  const providers = deps.providers ?? SANCTIONED_PROVIDERS;
  const sanctioned = sanctionedEndpoint(args.url, providers);
  const endpoint = sanctioned ?? (args.discover ? await discoverProvider(deps.http, args.url) : null);
  const data = endpoint ? await fetchFromProvider(deps.http, endpoint, args.url, args.maxwidth, args.maxheight ?? DEFAULT_MAXHEIGHT) : null;
  if (!data) {
    const html = embedHandlerHtml(args.url, args.maxwidth, args.maxheight ?? DEFAULT_MAXHEIGHT);
    if (html) return { provider_name: "Embed Handler", html, scripts: [] };
    return fail("oembed_invalid_url");
  }
  let html = data2html(data, args.url);
  if (html && !sanctioned && (data.type === "rich" || data.type === "video")) html = filterUnsanctionedHtml(html);
  const answer = { ...data, html };
  deps.cache.set(key, answer);
  return answer;
}
