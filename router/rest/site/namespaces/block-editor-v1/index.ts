// block-editor/v1 (WordPress core's URL details and site export controllers). url-details: what
// a page says about itself, fetched by the extensions subgraph through the outbound client, for
// those who may edit posts of some type. export: the site's block content as a zip (this site has
// no theme or templates; see subgraphs/content/embeds/export.ts), for edit_theme_options,
// answered as WordPress sends its zip (application/zip, attachment).
import {
  BlockEditorExportDocument, BlockEditorExportPermissionDocument, UrlDetailsDocument, UrlDetailsPermissionDocument,
} from "../../../../../generated/graphql/operations.ts";
import { route, type SiteRoute } from "../../route.ts";
import { op, opEndpoint } from "../../kit/crud.ts";
import { allowedBy } from "../../kit/operation.ts";

/** WordPress's url-details item schema (OPTIONS and the index show it). */
const URL_DETAILS_SCHEMA = {
  $schema: "http://json-schema.org/draft-04/schema#" as const,
  title: "url-details",
  type: "object" as const,
  properties: {
    title: { description: "The contents of the <title> element from the URL.", type: "string" as const, context: ["view", "edit", "embed"], readonly: true },
    icon: { description: "The favicon image link of the <link rel=\"icon\"> element from the URL.", type: "string" as const, format: "uri" as const, context: ["view", "edit", "embed"], readonly: true },
    description: { description: "The content of the <meta name=\"description\"> element from the URL.", type: "string" as const, context: ["view", "edit", "embed"], readonly: true },
    image: {
      description: "The Open Graph image link of the <meta property=\"og:image\"> or <meta property=\"og:image:url\"> element from the URL.",
      type: "string" as const, format: "uri" as const, context: ["view", "edit", "embed"], readonly: true,
    },
  },
};

export const blockEditorRoutes: SiteRoute[] = [
  route("block-editor/v1", "/url-details", [
    opEndpoint({
      methods: ["GET"],
      args: { url: { description: "The URL to process.", type: "string", format: "uri", required: true } },
      allowed: allowedBy(UrlDetailsPermissionDocument, (d) => d.urlDetailsViewerCan === true),
    }, op(UrlDetailsDocument, (r) => ({ url: String(r.params.url) }), (d) => d.urlDetails), (u) => ({
      body: { title: u.title, icon: u.icon, description: u.description, image: u.image },
    })),
  ], URL_DETAILS_SCHEMA),
  route("block-editor/v1", "/export", [
    opEndpoint({ methods: ["GET"], args: {}, allowed: allowedBy(BlockEditorExportPermissionDocument, (d) => d.blockEditorExportViewerCan === true) },
      op(BlockEditorExportDocument, () => ({}), (d) => d.blockEditorExport), (zip) => {
        const data = Buffer.from(zip.base64, "base64");
        return {
          body: { filename: zip.filename, size: data.length },
          headers: { "Content-Disposition": `attachment; filename=${zip.filename}`, "Content-Length": String(data.length) },
          raw: { contentType: zip.contentType, data },
        };
      }),
  ]),
];
