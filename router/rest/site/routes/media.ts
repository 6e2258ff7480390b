// core/v2/media: the attachment routes of seed 000 §4.2 (list, upload, read, update, delete,
// post-process, edit), as data. Not batchable (no allow_batch), as in WordPress. Uploads carry
// their bytes to the content subgraph as base64 in the mutation's file input: a raw body with
// Content-Disposition/Content-Type, or the `file` part of a multipart form.
import { mapFields, rawText, type FieldMap } from "./field-map.ts";
import { can } from "../../../../lib/capabilities.ts";
import type { Identity } from "../../../../lib/identity.ts";
import { gql } from "../../table.ts";
import { wpError } from "../errors.ts";
import { route, type ArgSchema, type RestRequest, type RestResult, type SiteRoute, type ValidatedParams } from "../route.ts";
import { contextArg, listWhere, omit, PAGE_LIST_ARGS, pageLinks, POST_LIST_ARGS } from "./post-type-routes.ts";
import { SETTABLE_STATUSES } from "../../../../lib/wordpress/post-values.ts";
import { contextOf, type Context } from "./post-shape.ts";
import { MEDIA_FIELDS, mediaAllow, restMedia, type GraphMedia } from "./media-shape.ts";

const NS = "core/v2";
const ID = "(?P<id>[\\d]+)";
const MEDIA_TYPES = ["image", "video", "text", "application", "audio"];

// ---- argument schemas (data) ----

/** L-media: L-page without menu_order (orderby back to L-post's); attachment statuses; media_type and mime_type. */
export const MEDIA_LIST_ARGS: Record<string, ArgSchema> = {
  ...Object.fromEntries(Object.entries(omit(PAGE_LIST_ARGS, ["menu_order"])).map(([name, schema]) => [name,
    name === "orderby" ? POST_LIST_ARGS.orderby
      : name === "status" ? { ...schema, items: { type: "string", enum: ["inherit", "private", "trash"] }, default: "inherit" }
        : schema])),
  media_type: { description: "Limit result set to attachments of a particular media type.", type: "string", enum: MEDIA_TYPES, default: null },
  mime_type: { description: "Limit result set to attachments of a particular MIME type.", type: "string", default: null },
};

const rendered = (what: string, of: string): ArgSchema => ({
  description: `The ${what} for the ${of}.`, type: "object", skipValidation: true,
  properties: {
    raw: { description: `${what[0].toUpperCase()}${what.slice(1)} for the ${of}, as it exists in the database.`, type: "string", context: ["edit"] },
    rendered: { description: `HTML ${what} for the ${of}, transformed for display.`, type: "string", context: ["view", "edit"], readonly: true },
  },
});

/** Writable attachment fields (seed 000 §2.3), in WordPress's schema order. */
export const MEDIA_WRITE_ARGS: Record<string, ArgSchema> = {
  date: { description: "The date the post was published, in the site's timezone.", type: ["string", "null"], format: "date-time" },
  date_gmt: { description: "The date the post was published, as GMT.", type: ["string", "null"], format: "date-time" },
  slug: { description: "An alphanumeric identifier for the post unique to its type.", type: "string" },
  status: { description: "A named status for the post.", type: "string", enum: SETTABLE_STATUSES },
  title: rendered("title", "post"),
  author: { description: "The ID for the author of the post.", type: "integer" },
  featured_media: { description: "The ID of the featured media for the post.", type: "integer" },
  comment_status: { description: "Whether or not comments are open on the post.", type: "string", enum: ["open", "closed"] },
  ping_status: { description: "Whether or not the post can be pinged.", type: "string", enum: ["open", "closed"] },
  meta: { description: "Meta fields.", type: "object" },
  template: { description: "The theme file to use to display the post.", type: "string" },
  alt_text: { description: "Alternative text to display when attachment is not displayed.", type: "string" },
  caption: { ...rendered("caption", "attachment"), description: "The attachment caption." },
  description: { ...rendered("description", "attachment"), description: "The attachment description." },
  post: { description: "The ID for the associated post of the attachment.", type: "integer" },
};

const idArg: ArgSchema = { description: "Unique identifier for the post.", type: "integer" };

const pct = (description: string): ArgSchema => ({ description, type: "number" });

/** The edit body (seed 000 §4.2.1): WordPress 6.1's modifiers (Rotation, Crop) and the deprecated fields. */
export const MEDIA_EDIT_ARGS: Record<string, ArgSchema> = {
  src: { description: "URL to the edited image file.", type: "string", format: "uri", required: true },
  modifiers: {
    description: "Array of image edits.", type: "array", minItems: 1,
    items: {
      description: "Image edit.", type: "object", required: ["type", "args"],
      oneOf: [
        {
          title: "Rotation",
          properties: {
            type: { description: "Rotation type.", type: "string", enum: ["rotate"] },
            args: {
              description: "Rotation arguments.", type: "object", required: ["angle"],
              properties: { angle: { description: "Angle to rotate clockwise in degrees.", type: "number" } },
            },
          },
        },
        {
          title: "Crop",
          properties: {
            type: { description: "Crop type.", type: "string", enum: ["crop"] },
            args: {
              description: "Crop arguments.", type: "object", required: ["left", "top", "width", "height"],
              properties: {
                left: pct("Horizontal position from the left to begin the crop as a percentage of the image width."),
                top: pct("Vertical position from the top to begin the crop as a percentage of the image height."),
                width: pct("Width of the crop as a percentage of the image width."),
                height: pct("Height of the crop as a percentage of the image height."),
              },
            },
          },
        },
      ],
    },
  },
  rotation: {
    description: "The amount to rotate the image clockwise in degrees. DEPRECATED: Use `modifiers` instead.",
    type: "integer", minimum: 0, exclusiveMinimum: true, maximum: 360, exclusiveMaximum: true,
  },
  x: { description: "As a percentage of the image, the x position to start the crop from. DEPRECATED: Use `modifiers` instead.", type: "number", minimum: 0, maximum: 100 },
  y: { description: "As a percentage of the image, the y position to start the crop from. DEPRECATED: Use `modifiers` instead.", type: "number", minimum: 0, maximum: 100 },
  width: { description: "As a percentage of the image, the width to crop the image to. DEPRECATED: Use `modifiers` instead.", type: "number", minimum: 0, maximum: 100 },
  height: { description: "As a percentage of the image, the height to crop the image to. DEPRECATED: Use `modifiers` instead.", type: "number", minimum: 0, maximum: 100 },
};

// ---- request → GraphQL ----

const MEDIA_FIELDS_IN: FieldMap = {
  date: "date", date_gmt: "dateGmt", slug: "slug", status: "status", title: ["title", rawText], author: "author",
  featured_media: "featuredMedia", comment_status: "commentStatus", ping_status: "pingStatus", template: "template",
  alt_text: "altText", caption: ["caption", rawText], description: ["description", rawText], post: "post",
};

/** The GraphQL media input from the fields the request actually sent. */
export const mediaInput = (params: ValidatedParams, sent: ReadonlySet<string>): Record<string, unknown> =>
  mapFields(MEDIA_FIELDS_IN, params, (name) => sent.has(name));

const header = (r: RestRequest, name: string): string | null => {
  const value = r.headers[name];
  return Array.isArray(value) ? value.join(", ") : value ?? null;
};

/** The uploaded file: the multipart `file` part (form semantics), or the raw body with its headers. */
function fileInput(r: RestRequest): Record<string, unknown> {
  const md5 = header(r, "content-md5");
  if (r.files && Object.keys(r.files).length > 0) {
    // WordPress reads only the part named `file`; other file parts make an empty upload.
    const file = r.files.file;
    return { base64: file ? file.bytes.toString("base64") : "", filename: file?.filename ?? "", contentType: file?.contentType ?? null, md5 };
  }
  return {
    base64: r.rawBody?.toString("base64") ?? "",
    contentType: header(r, "content-type"), contentDisposition: header(r, "content-disposition"), md5,
  };
}

function editInput(p: ValidatedParams): Record<string, unknown> {
  const input: Record<string, unknown> = { src: p.src };
  if (Array.isArray(p.modifiers)) {
    input.modifiers = (p.modifiers as { type: string; args: Record<string, number> }[]).map((m) => (m.type === "rotate"
      ? { type: "ROTATE", angle: m.args.angle }
      : { type: "CROP", left: m.args.left, top: m.args.top, width: m.args.width, height: m.args.height }));
  }
  for (const key of ["rotation", "x", "y", "width", "height"]) if (p[key] !== undefined && p[key] !== null) input[key] = p[key];
  return input;
}

/** The L-media filter: the post-type filter of the route's own arguments, plus the media ones. */
function mediaWhere(p: ValidatedParams) {
  return {
    ...listWhere(MEDIA_LIST_ARGS, p),
    ...(p.media_type ? { mediaType: String(p.media_type).toUpperCase() } : {}),
    ...(p.mime_type ? { mimeType: p.mime_type } : {}),
  };
}

// ---- GraphQL → response ----

const canUpload = (identity: Identity) => can(identity.site?.roles, "upload_files");
const canEditPosts = (identity: Identity) => can(identity.site?.roles, "edit_posts");
const forbiddenContext = (identity: Identity, message: string): RestResult => wpError("rest_forbidden_context", message, identity.site ? 403 : 401);
/** Routes without a `context` argument still honour a valid one, else view. */
const requestContext = (r: RestRequest): Context => (["view", "embed", "edit"].includes(r.params.context) ? r.params.context : "view");

function itemResponse(item: GraphMedia, r: RestRequest, context: Context, status = 200): RestResult {
  return { status, body: restMedia(item, context, r.urls), headers: { Allow: mediaAllow(item).join(", ") } };
}

/** 201 for a new attachment: Location, and the id header clients use to recover from a timeout. */
function createdResponse(item: GraphMedia, r: RestRequest, context: Context): RestResult {
  return {
    status: 201, body: restMedia(item, context, r.urls),
    headers: { Location: r.urls.rest(`/core/v2/media/${item.id}`), "X-WP-Upload-Attachment-ID": String(item.id) },
  };
}

// ---- operations ----

const LIST = gql`query ListMedia($where: MediaWhere, $page: Int, $perPage: Int, $offset: Int, $order: SortOrder, $orderBy: PostOrderBy) {
  mediaItems(where: $where, page: $page, perPage: $perPage, offset: $offset, order: $order, orderBy: $orderBy) { totalCount totalPages nodes { ...MediaFields } }
} ${MEDIA_FIELDS}`;
const READ = gql`query ReadMedia($id: ID!) { mediaItem(id: $id) { ...MediaFields } } ${MEDIA_FIELDS}`;
const CREATE = gql`mutation CreateMedia($file: MediaFileInput!, $input: MediaItemInput) { createMediaItem(file: $file, input: $input) { ...MediaFields } } ${MEDIA_FIELDS}`;
const UPDATE = gql`mutation UpdateMedia($id: ID!, $input: MediaItemInput!) { updateMediaItem(id: $id, input: $input) { ...MediaFields } } ${MEDIA_FIELDS}`;
const DELETE = gql`mutation DeleteMedia($id: ID!, $force: Boolean) { deleteMediaItem(id: $id, force: $force) { deleted previous { ...MediaFields } } } ${MEDIA_FIELDS}`;
const PROCESS = gql`mutation ProcessMedia($id: ID!, $action: MediaProcessAction!) { processMediaItem(id: $id, action: $action) { ...MediaFields } } ${MEDIA_FIELDS}`;
const EDIT = gql`mutation EditMedia($id: ID!, $input: MediaEditInput!) { editMediaItem(id: $id, input: $input) { ...MediaFields } } ${MEDIA_FIELDS}`;

const upper = (value: unknown) => String(value ?? "").toUpperCase();

export const mediaRoutes: SiteRoute[] = [
  route(NS, "/media", [
    {
      methods: ["GET"], args: MEDIA_LIST_ARGS, operation: LIST,
      variables: (r) => ({
        where: mediaWhere(r.params), page: r.params.page, perPage: r.params.per_page, offset: r.params.offset ?? null,
        order: upper(r.params.order), orderBy: upper(r.params.orderby),
      }),
      respond: (data, r) => {
        const context = contextOf(r);
        if (context === "edit" && !canEditPosts(r.identity)) return forbiddenContext(r.identity, "Sorry, you are not allowed to edit posts in this post type.");
        const { nodes, totalCount, totalPages } = data.mediaItems as { nodes: GraphMedia[]; totalCount: number; totalPages: number };
        // Edit context keeps only what the caller may edit; the totals still count everything.
        const visible = context === "edit" ? nodes.filter((n) => n.viewerCan.edit) : nodes;
        const link = pageLinks(r, "/core/v2/media", r.params.page, totalPages);
        return {
          body: visible.map((n) => restMedia(n, context, r.urls)),
          headers: { "X-WP-Total": String(totalCount), "X-WP-TotalPages": String(totalPages), ...(link ? { Link: link } : {}) },
        };
      },
    },
    {
      methods: ["POST"], args: MEDIA_WRITE_ARGS, operation: CREATE, allowed: canUpload,
      variables: (r) => ({ file: fileInput(r), input: mediaInput(r.params, r.sent) }),
      respond: (data, r) => createdResponse(data.createMediaItem as GraphMedia, r, "edit"),
    },
  ]),
  route(NS, `/media/${ID}`, [
    {
      methods: ["GET"], operation: READ, args: { id: idArg, context: contextArg() },
      variables: (r) => ({ id: String(r.params.id) }),
      respond: (data, r) => {
        const item = data.mediaItem as GraphMedia;
        const context = contextOf(r);
        if (context === "edit" && !item.viewerCan.edit) return forbiddenContext(r.identity, "Sorry, you are not allowed to edit this post.");
        const result = itemResponse(item, r, context);
        return { ...result, headers: { ...result.headers, Link: `<${item.link}>; rel="alternate"; type=text/html` } };
      },
    },
    {
      methods: ["POST", "PUT", "PATCH"], operation: UPDATE, allowed: canEditPosts,
      args: { id: idArg, ...MEDIA_WRITE_ARGS },
      variables: (r) => ({ id: String(r.params.id), input: mediaInput(r.params, r.sent) }),
      respond: (data, r) => itemResponse(data.updateMediaItem as GraphMedia, r, "edit"),
    },
    {
      methods: ["DELETE"], operation: DELETE, allowed: canEditPosts,
      args: { id: idArg, force: { type: "boolean", default: false, description: "Whether to bypass Trash and force deletion." } },
      variables: (r) => ({ id: String(r.params.id), force: r.params.force }),
      respond: (data, r) => {
        const result = data.deleteMediaItem as { deleted: boolean; previous: GraphMedia };
        return { body: { deleted: true, previous: restMedia(result.previous, "edit", r.urls, false) } };
      },
    },
  ]),
  route(NS, `/media/${ID}/post-process`, [{
    methods: ["POST"], operation: PROCESS, allowed: canEditPosts,
    args: {
      id: { description: "Unique identifier for the attachment.", type: "integer" },
      action: { type: "string", enum: ["create-image-subsizes"], required: true },
    },
    variables: (r) => ({ id: String(r.params.id), action: upper(r.params.action).replace(/-/g, "_") }),
    respond: (data, r) => ({ body: restMedia(data.processMediaItem as GraphMedia, "edit", r.urls) }),
  }]),
  route(NS, `/media/${ID}/edit`, [{
    methods: ["POST"], operation: EDIT, allowed: canUpload, args: MEDIA_EDIT_ARGS,
    variables: (r) => ({ id: String(r.params.id), input: editInput(r.params) }),
    respond: (data, r) => createdResponse(data.editMediaItem as GraphMedia, r, requestContext(r)),
  }]),
];
