// Thin resolvers of oembed/1.0 (the own-content embed and the proxy: oembed.ts, proxy.ts) and of
// block-editor/v1/export (export.ts), which reads the content this subgraph owns.
import type { Resolvers } from "../../../generated/graphql/content-resolvers.ts";
import { httpClientFor } from "../../../lib/http-client.ts";
import { embedPage } from "./embed-page.ts";
import { canExportSite, exportSite } from "./export.ts";
import { OEMBED_DEFAULT_WIDTH, ownOEmbed } from "./oembed.ts";
import { proxyCacheFor, proxyOEmbed, type ProxyDocument } from "./proxy.ts";

const text = (doc: ProxyDocument, key: string): string | null => (typeof doc[key] === "string" ? doc[key] as string : null);

export const embedResolvers: Resolvers = {
  Query: {
    blockEditorExport: async (_, __, ctx) => {
      const zip = await exportSite(ctx);
      return { filename: zip.filename, contentType: zip.contentType, base64: zip.data.toString("base64"), files: zip.files };
    },
    blockEditorExportViewerCan: (_, __, ctx) => canExportSite(ctx),
    embedPage: (_, { url }, ctx) => embedPage(ctx, url),
    oembed: (_, { url, maxwidth }, ctx) => ownOEmbed(ctx, url, maxwidth ?? OEMBED_DEFAULT_WIDTH),
    oembedProxy: async (_, args, ctx) => {
      const doc = await proxyOEmbed(ctx, {
        url: args.url, format: args.format === "XML" ? "xml" : "json", maxwidth: args.maxwidth ?? OEMBED_DEFAULT_WIDTH,
        maxheight: args.maxheight ?? null, discover: args.discover ?? true,
      }, { http: httpClientFor(ctx.config), cache: proxyCacheFor(ctx.config) });
      return {
        type: text(doc, "type"), providerName: text(doc, "provider_name"), providerUrl: text(doc, "provider_url"), title: text(doc, "title"),
        authorName: text(doc, "author_name"), authorUrl: text(doc, "author_url"), html: text(doc, "html"), url: text(doc, "url"),
        thumbnailUrl: text(doc, "thumbnail_url"),
        scripts: Array.isArray(doc.scripts) ? doc.scripts.filter((s): s is string => typeof s === "string") : null,
        document: JSON.stringify(doc),
      };
    },
  },
};
