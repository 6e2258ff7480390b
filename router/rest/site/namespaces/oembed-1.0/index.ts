// oembed/1.0 (WordPress core's WP_oEmbed_Controller): /embed for this site's own items, public,
// in JSON or XML; /proxy for any address, for those who may edit posts. The content subgraph
// resolves both (subgraphs/content/embeds); the XML is written here, as WordPress's
// rest_pre_serve_request filter writes it for /embed.
import { OEmbedDocument, OEmbedProxyDocument, OEmbedProxyPermissionDocument, type OEmbedQuery } from "../../../../../generated/graphql/operations.ts";
import { route, type ArgSchema, type RestResult, type SiteRoute } from "../../route.ts";
import { op, opEndpoint } from "../../kit/crud.ts";
import { allowedBy } from "../../kit/operation.ts";

type OEmbed = OEmbedQuery["oembed"];

/** oembed_default_width. */
const DEFAULT_WIDTH = 600;

/** PHP's absint: the integer a value starts with, made positive (0 when none). */
export function absint(value: unknown): number {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return Number.isFinite(value) ? Math.abs(Math.trunc(value)) : 0;
  if (typeof value !== "string") return Array.isArray(value) ? (value.length ? 1 : 0) : 0;
  const n = Number.parseInt(value.trim(), 10);
  return Number.isFinite(n) ? Math.min(Math.abs(n), 2 ** 31 - 1) : 0;
}

const urlArg: ArgSchema = { description: "The URL of the resource for which to fetch oEmbed data.", type: "string", format: "uri", required: true };

/** WordPress's oEmbed response data, in its key order (thumbnail only when there is one). */
export function oembedBody(o: OEmbed): Record<string, unknown> {
  return {
    version: o.version, provider_name: o.providerName, provider_url: o.providerUrl, author_name: o.authorName, author_url: o.authorUrl,
    title: o.title, type: o.type, width: o.width, height: o.height, html: o.html,
    ...(o.thumbnailUrl !== null ? { thumbnail_url: o.thumbnailUrl, thumbnail_width: o.thumbnailWidth, thumbnail_height: o.thumbnailHeight } : {}),
  };
}

/** esc_html: & < > " ' encoded, existing entities left as they are. */
const escHtml = (text: string) => text
  .replace(/&(?!(?:[A-Za-z][A-Za-z0-9]*|#\d+|#x[0-9A-Fa-f]+);)/g, "&amp;")
  .replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#039;");

const xmlValue = (value: unknown): string => (value === true ? "1" : value === false || value === null || value === undefined ? "" : escHtml(String(value)));

/** _oembed_create_xml: each member an element (numeric keys become <oembed>), nested arrays nested. */
export function oembedXml(data: Record<string, unknown>): string {
  const children = (object: Record<string, unknown>): string => Object.entries(object).map(([key, value]) => {
    const name = /^\d+$/.test(key) ? "oembed" : key;
    if (value && typeof value === "object") {
      const entries = Array.isArray(value) ? Object.fromEntries(value.map((v, i) => [String(i), v])) : value as Record<string, unknown>;
      return Object.keys(entries).length ? `<${name}>${children(entries)}</${name}>` : `<${name}/>`;
    }
    const text = xmlValue(value);
    return text === "" ? `<${name}/>` : `<${name}>${text}</${name}>`;
  }).join("");
  return `<?xml version="1.0"?>\n<oembed>${children(data)}</oembed>\n`;
}

/** wp_oembed_ensure_format: json or xml; anything else is json. */
const ensureFormat = (value: unknown) => (value === "xml" || value === "json" ? value : "json");

/**
 * _oembed_rest_pre_serve_request: /embed asked with format=xml is served as XML, its errors too
 * (an error's code, message and data become elements as well).
 */
function serveXml(result: RestResult, query: Record<string, unknown>): RestResult {
  if (query.format !== "xml" || !result.body || typeof result.body !== "object" || Array.isArray(result.body)) return result;
  return { ...result, raw: { contentType: "text/xml; charset=UTF-8", data: oembedXml(result.body as Record<string, unknown>) } };
}

export const oembedRoutes: SiteRoute[] = [
  { ...route("oembed/1.0", "/embed", [
    opEndpoint({
      methods: ["GET"],
      args: {
        url: urlArg,
        format: { default: "json", sanitize: ensureFormat },
        maxwidth: { default: DEFAULT_WIDTH, sanitize: absint },
      },
    }, op(OEmbedDocument, (r) => ({ url: String(r.params.url), maxwidth: absint(r.params.maxwidth) }), (d) => d.oembed), (o) => ({ body: oembedBody(o) })),
  ]), serve: serveXml },
  route("oembed/1.0", "/proxy", [
    opEndpoint({
      methods: ["GET"],
      args: {
        url: urlArg,
        format: { description: "The oEmbed format to use.", type: "string", default: "json", enum: ["json", "xml"] },
        maxwidth: { description: "The maximum width of the embed frame in pixels.", type: "integer", default: DEFAULT_WIDTH, sanitize: absint },
        maxheight: { description: "The maximum height of the embed frame in pixels.", type: "integer", sanitize: absint },
        discover: { description: "Whether to perform an oEmbed discovery request for unsanctioned providers.", type: "boolean", default: true },
      },
      allowed: allowedBy(OEmbedProxyPermissionDocument, (d) => d.viewerCan?.createPosts === true),
    }, op(OEmbedProxyDocument, (r) => ({
      url: String(r.params.url), format: r.params.format === "xml" ? "XML" as const : "JSON" as const, maxwidth: absint(r.params.maxwidth),
      maxheight: r.params.maxheight === undefined ? null : absint(r.params.maxheight), discover: r.params.discover !== false,
    }), (d) => d.oembedProxy.document), (document) => ({ body: JSON.parse(document) as unknown })),
  ]),
];
