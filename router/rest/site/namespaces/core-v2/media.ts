// core/v2/media: the attachment routes of seed 000 §4.2 (list, upload, read, update, delete,
// post-process, edit). Not batchable (no allow_batch), as in WordPress. Uploads carry their bytes
// to the content subgraph as base64 in the mutation's file input: a raw body with
// Content-Disposition/Content-Type, or the `file` part of a multipart form. Each endpoint is one
// typed operation of media.graphql.
import {
  CreateMediaDocument, DeleteMediaDocument, EditMediaDocument, ListMediaDocument, MediaEditPermissionDocument, ProcessMediaDocument,
  ReadMediaDocument, SitePermissionsDocument, UpdateMediaDocument,
  type MediaEditInput, type MediaFieldsFragment, type MediaFileInput, type MediaProcessAction, type MediaType, type PostOrderBy,
} from "../../../../../generated/graphql/operations.ts";
import { SETTABLE_STATUSES } from "../../../../../lib/wordpress/post-values.ts";
import { route, type ArgSchema, type RestRequest, type SiteRoute, type ValidatedParams } from "../../route.ts";
import { omit, str, upper, type Args } from "../../kit/args.ts";
import { crudRoutes, ID, inputOf, op, opEndpoint } from "../../kit/crud.ts";
import { allowedBy, allowedOn } from "../../kit/operation.ts";
import { CURIES, mapInput, present, renderedSchema, type Context, type Field, type Links, type Resource, type View } from "../../kit/resource.ts";
import { listWhere, PAGE_LIST_ARGS, POST_LIST_ARGS } from "./post-lists.ts";
import { rawText } from "./posts.ts";
import { toEnum, wpDiscussion, wpGmt, wpStatus } from "./wp-values.ts";

type MediaNode = MediaFieldsFragment;

const VIEW_EDIT: Context[] = ["view", "edit"];
const ALL: Context[] = ["view", "edit", "embed"];
const EDIT: Context[] = ["edit"];
const MEDIA_TYPES = ["image", "video", "text", "application", "audio"];

// ---- the attachment, declared once ----

const scalar = (description: string, type: ArgSchema["type"], context: Context[], extra: Partial<ArgSchema> = {}): ArgSchema => ({ description, type, context, ...extra });
/** Attachment texts: `{raw, rendered}`, raw in edit context only; WordPress validates none of them on write. */
const text = (description: string, what: string, of: string, contexts: Context[] = ALL): ArgSchema =>
  renderedSchema(description, `${what} for the ${of}, as it exists in the database.`, `HTML ${what.toLowerCase()} for the ${of}, transformed for display.`, { field: contexts, rendered: contexts });
const textWrite = { arg: { skipValidation: true } };
const rendered = (t: { raw: string | null; rendered: string }) => ({ raw: t.raw ?? "", rendered: t.rendered });

/** `media_details` as WordPress sends it: present members only, sizes keyed by name (`{}` when none), empty metadata as `{}`. */
function mediaDetails(details: MediaNode["mediaDetails"]): Record<string, unknown> {
  if (!details) return {};
  const out: Record<string, unknown> = {};
  if (details.width !== null) out.width = details.width;
  if (details.height !== null) out.height = details.height;
  if (details.file !== null) out.file = details.file;
  if (details.filesize !== null) out.filesize = details.filesize;
  out.sizes = Object.fromEntries(details.sizes.map((s) => [s.name, {
    file: s.file, width: s.width, height: s.height, ...(s.filesize !== null ? { filesize: s.filesize } : {}), mime_type: s.mimeType, source_url: s.sourceUrl,
  }]));
  if (details.imageMeta) {
    const m = details.imageMeta;
    out.image_meta = {
      aperture: m.aperture, credit: m.credit, camera: m.camera, caption: m.caption, created_timestamp: m.createdTimestamp, copyright: m.copyright,
      focal_length: m.focalLength, iso: m.iso, shutter_speed: m.shutterSpeed, title: m.title, orientation: m.orientation, keywords: m.keywords,
    };
  }
  if (details.originalImage !== null) out.original_image = details.originalImage;
  if (details.parentImage) out.parent_image = { attachment_id: details.parentImage.attachmentId, file: details.parentImage.file };
  return out;
}

/**
 * `_links` of an attachment as WordPress 6.1 sends them (recording 063): no version history,
 * attachment or term links, and `curies` only when a `wp:` relation is present.
 */
function mediaLinks(n: MediaNode, view: View): Links {
  const rest = view.urls.rest;
  const self = [{ href: rest(`/core/v2/media/${n.id}`) }];
  const links: Links = { self, collection: [{ href: rest("/core/v2/media") }], about: [{ href: rest("/core/v2/types/attachment") }] };
  if (n.authorId) links.author = [{ embeddable: true, href: rest(`/core/v2/users/${n.authorId}`) }];
  links.replies = [{ embeddable: true, href: rest(`/core/v2/comments?post=${n.id}`) }];
  if (n.featuredMediaId) links["wp:featuredmedia"] = [{ embeddable: true, href: rest(`/core/v2/media/${n.featuredMediaId}`) }];
  if (view.context === "edit") {
    if (n.viewerCan.unfilteredHtml) links["wp:action-unfiltered-html"] = self;
    if (n.viewerCan.assignAuthor) links["wp:action-assign-author"] = self;
  }
  if (Object.keys(links).some((rel) => rel.startsWith("wp:"))) links.curies = CURIES;
  return links;
}

/** The attachment (seed 000 §2.3, reference §5.4): fields in WordPress's schema order, answered in prepare_item_for_response's. */
export const MEDIA_RESOURCE: Resource<MediaNode> = {
  title: "attachment",
  fields: {
    date: { schema: scalar("The date the post was published, in the site's timezone.", ["string", "null"], ALL, { format: "date-time" }), read: (n) => n.date, input: "date" },
    date_gmt: { schema: scalar("The date the post was published, as GMT.", ["string", "null"], VIEW_EDIT, { format: "date-time" }), read: (n) => wpGmt(n.dateGmt), input: "dateGmt" },
    guid: {
      schema: { ...text("The globally unique identifier for the post.", "GUID", "post", VIEW_EDIT), readonly: true },
      read: (n) => ({ rendered: n.guid.rendered, raw: n.guid.raw ?? n.guid.rendered }),
    },
    id: { schema: scalar("Unique identifier for the post.", "integer", ALL, { readonly: true }), read: (n) => Number(n.id) },
    link: { schema: scalar("URL to the post.", "string", ALL, { format: "uri", readonly: true }), read: (n) => n.link },
    modified: { schema: scalar("The date the post was last modified, in the site's timezone.", "string", VIEW_EDIT, { format: "date-time", readonly: true }), read: (n) => n.modified },
    modified_gmt: { schema: scalar("The date the post was last modified, as GMT.", "string", VIEW_EDIT, { format: "date-time", readonly: true }), read: (n) => wpGmt(n.modifiedGmt) },
    slug: { schema: scalar("An alphanumeric identifier for the post unique to its type.", "string", ALL), read: (n) => n.slug, input: "slug" },
    status: { schema: scalar("A named status for the post.", "string", VIEW_EDIT, { enum: SETTABLE_STATUSES }), read: (n) => wpStatus(n.status), input: ["status", toEnum] },
    type: { schema: scalar("Type of post.", "string", ALL, { readonly: true }), read: (n) => n.type },
    permalink_template: { schema: scalar("Permalink template for the post.", "string", EDIT, { readonly: true }), read: (n) => n.permalinkTemplate },
    generated_slug: { schema: scalar("Slug automatically generated from the post title.", "string", EDIT, { readonly: true }), read: (n) => n.generatedSlug },
    title: { schema: text("The title for the post.", "Title", "post"), read: (n) => rendered(n.title), ...textWrite, input: ["title", rawText] },
    author: { schema: scalar("The ID for the author of the post.", "integer", ALL), read: (n) => n.authorId, input: "author" },
    featured_media: { schema: scalar("The ID of the featured media for the post.", "integer", ALL), read: (n) => n.featuredMediaId, input: "featuredMedia" },
    comment_status: { schema: scalar("Whether or not comments are open on the post.", "string", VIEW_EDIT, { enum: ["open", "closed"] }), read: (n) => wpDiscussion(n.commentStatus), input: ["commentStatus", toEnum] },
    ping_status: { schema: scalar("Whether or not the post can be pinged.", "string", VIEW_EDIT, { enum: ["open", "closed"] }), read: (n) => wpDiscussion(n.pingStatus), input: ["pingStatus", toEnum] },
    // No meta is registered for attachments: an empty PHP array, so `[]`.
    meta: { schema: scalar("Meta fields.", "object", VIEW_EDIT), read: () => [] },
    template: { schema: scalar("The theme file to use to display the post.", "string", VIEW_EDIT), read: (n) => n.template, input: "template" },
    alt_text: { schema: scalar("Alternative text to display when attachment is not displayed.", "string", ALL), read: (n) => n.altText, input: "altText" },
    caption: { schema: text("The attachment caption.", "Caption", "attachment"), read: (n) => rendered(n.caption), ...textWrite, input: ["caption", rawText] },
    description: {
      schema: text("The attachment description.", "Description", "attachment", VIEW_EDIT),
      read: (n) => rendered(n.description), ...textWrite, input: ["description", rawText],
    },
    media_type: { schema: scalar("Attachment type.", "string", ALL, { enum: ["image", "file"], readonly: true }), read: (n) => n.mediaType },
    mime_type: { schema: scalar("The attachment MIME type.", "string", ALL, { readonly: true }), read: (n) => n.mimeType },
    media_details: { schema: scalar("Details about the media file, specific to its type.", "object", ALL, { readonly: true }), read: (n) => mediaDetails(n.mediaDetails) },
    post: { schema: scalar("The ID for the associated post of the attachment.", "integer", VIEW_EDIT), read: (n) => n.post, input: "post" },
    source_url: { schema: scalar("URL to the original attachment file.", "string", ALL, { format: "uri", readonly: true }), read: (n) => n.sourceUrl },
    missing_image_sizes: {
      schema: scalar("List of the missing image sizes of the attachment.", "array", EDIT, { items: { type: "string" }, readonly: true }),
      read: (n) => n.missingImageSizes,
    },
  },
  links: mediaLinks,
  responseOrder: [
    "id", "date", "date_gmt", "guid", "modified", "modified_gmt", "slug", "status", "type", "link", "title", "author", "featured_media", "comment_status", "ping_status", "template", "meta", "permalink_template", "generated_slug", "description", "caption", "alt_text", "media_type", "mime_type", "media_details", "post", "source_url", "missing_image_sizes",
  ],
};

// ---- arguments ----

/** L-media: L-page without menu_order (orderby back to L-post's); attachment statuses; media_type and mime_type. */
export const MEDIA_LIST_ARGS: Args = {
  ...Object.fromEntries(Object.entries(omit(PAGE_LIST_ARGS, ["menu_order"])).map(([name, schema]) => [name,
    name === "orderby" ? POST_LIST_ARGS.orderby
      : name === "status" ? { ...schema, items: { type: "string", enum: ["inherit", "private", "trash"] }, default: "inherit" }
        : schema])),
  media_type: { description: "Limit result set to attachments of a particular media type.", type: "string", enum: MEDIA_TYPES, default: null },
  mime_type: { description: "Limit result set to attachments of a particular MIME type.", type: "string", default: null },
};

const pct = (description: string): ArgSchema => ({ description, type: "number" });
const deprecatedPct = (description: string): ArgSchema =>
  ({ description: `${description} DEPRECATED: Use \`modifiers\` instead.`, type: "number", minimum: 0, maximum: 100 });

/** The edit body (seed 000 §4.2.1): WordPress 6.1's modifiers (Rotation, Crop) and the deprecated fields. */
export const MEDIA_EDIT_ARGS: Args = {
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
  x: deprecatedPct("As a percentage of the image, the x position to start the crop from."),
  y: deprecatedPct("As a percentage of the image, the y position to start the crop from."),
  width: deprecatedPct("As a percentage of the image, the width to crop the image to."),
  height: deprecatedPct("As a percentage of the image, the height to crop the image to."),
};

// ---- request → variables ----

/** The media filters beyond the post type's: `media_type` as the graph's enum, `mime_type` when given. */
const MEDIA_WHERE: Record<string, Pick<Field<MediaNode>, "input">> = {
  media_type: { input: ["mediaType", (v) => upper<MediaType>(v)] },
  mime_type: { input: ["mimeType", (v) => v || undefined] },
};

/** WordPress's post-process actions as the graph's. */
const PROCESS_ACTIONS: Record<string, MediaProcessAction> = { "create-image-subsizes": "CREATE_IMAGE_SUBSIZES" };

const header = (r: RestRequest, name: string): string | null => {
  const value = r.headers[name];
  return Array.isArray(value) ? value.join(", ") : value ?? null;
};

/** The uploaded file: the multipart `file` part (form semantics), or the raw body with its headers. */
function fileInput(r: RestRequest): MediaFileInput {
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

type Modifier = { type: "rotate"; args: { angle: number } } | { type: "crop"; args: { left: number; top: number; width: number; height: number } };

function editInput(p: ValidatedParams): MediaEditInput {
  const input: MediaEditInput = { src: str(p.src) ?? "" };
  if (Array.isArray(p.modifiers)) {
    input.modifiers = (p.modifiers as Modifier[]).map((m) => (m.type === "rotate"
      ? { type: "ROTATE", angle: m.args.angle }
      : { type: "CROP", left: m.args.left, top: m.args.top, width: m.args.width, height: m.args.height }));
  }
  for (const key of ["rotation", "x", "y", "width", "height"] as const) {
    const value = p[key];
    if (typeof value === "number") input[key] = value;
  }
  return input;
}

/** Routes without a `context` argument still honour a valid one, else view. */
const requestContext = (r: RestRequest): Context => {
  const context: unknown = r.params.context;
  return context === "embed" || context === "edit" ? context : "view";
};
const idOf = (r: RestRequest) => String(r.params.id);

// ---- the routes ----

/** upload_files for uploads and image edits; edit_posts for the rest (WordPress's attachment checks): the graph decides. */
const canUpload = allowedBy(SitePermissionsDocument, (d) => d.viewerCan?.uploadFiles ?? false);
const canEditPosts = allowedBy(SitePermissionsDocument, (d) => d.viewerCan?.createPosts ?? false);
/**
 * Post-processing and image edits run the attachment's update check (edit_post of it); an edit
 * also needs upload_files first, which every stock role that may edit others' or own uploads has.
 */
const canEditAttachment = allowedOn(MediaEditPermissionDocument, (p) => ({ id: p.id }), (d) => d.mediaItem?.viewerCan.edit ?? false);

const mediaInput = inputOf(MEDIA_RESOURCE);
/** The id header clients use to recover an upload that timed out. */
const uploadedId = (n: MediaNode) => ({ "X-WP-Upload-Attachment-ID": String(n.id) });

export const mediaRoutes: SiteRoute[] = [
  ...crudRoutes({
    namespace: "core/v2", path: "/media", resource: MEDIA_RESOURCE, idArg: { description: "Unique identifier for the post.", type: "integer" },
    allow: { create: canUpload, update: canEditPosts, delete: canEditPosts, editContext: canEditPosts },
    list: {
      args: MEDIA_LIST_ARGS,
      // Edit context keeps only what the caller may edit; the totals still count everything.
      visible: (n, context) => context !== "edit" || n.viewerCan.edit,
      op: op(ListMediaDocument, (r) => ({
        where: { ...listWhere(MEDIA_LIST_ARGS, r.params), ...mapInput(MEDIA_WHERE, r.params, () => true) },
        page: r.params.page as number, perPage: r.params.per_page as number, offset: r.params.offset ?? null,
        order: upper<"ASC" | "DESC">(r.params.order), orderBy: upper<PostOrderBy>(r.params.orderby),
      }), (d) => d.mediaItems!),
    },
    create: { op: op(CreateMediaDocument, (r) => ({ file: fileInput(r), input: mediaInput(r) }), (d) => d.createMediaItem!), headers: uploadedId },
    read: { op: op(ReadMediaDocument, (r) => ({ id: idOf(r) }), (d) => d.mediaItem!), headers: (n) => ({ Link: `<${n.link}>; rel="alternate"; type=text/html` }) },
    update: { op: op(UpdateMediaDocument, (r) => ({ id: idOf(r), input: mediaInput(r) }), (d) => d.updateMediaItem!) },
    delete: {
      force: "Whether to bypass Trash and force deletion.",
      op: op(DeleteMediaDocument, (r) => ({ id: idOf(r), force: r.params.force as boolean }), (d) => ({ deleted: d.deleteMediaItem!.deleted, node: d.deleteMediaItem!.previous })),
    },
  }),
  route("core/v2", `/media/${ID}/post-process`, [opEndpoint({
    methods: ["POST"], allowed: canEditAttachment,
    args: {
      id: { description: "Unique identifier for the attachment.", type: "integer" },
      action: { type: "string", enum: ["create-image-subsizes"], required: true },
    },
  }, op(ProcessMediaDocument, (r) => ({ id: idOf(r), action: PROCESS_ACTIONS[String(r.params.action) as keyof typeof PROCESS_ACTIONS] }), (d) => d.processMediaItem!),
  (n, r) => ({ body: present(MEDIA_RESOURCE, n, { context: "edit", urls: r.urls }) }))]),
  route("core/v2", `/media/${ID}/edit`, [opEndpoint({ methods: ["POST"], allowed: canEditAttachment, args: MEDIA_EDIT_ARGS },
    op(EditMediaDocument, (r) => ({ id: idOf(r), input: editInput(r.params) }), (d) => d.editMediaItem!),
    // The edited copy is a new attachment: 201 in the request's context, as an upload is.
    (n, r) => ({ status: 201, body: present(MEDIA_RESOURCE, n, { context: requestContext(r), urls: r.urls }), headers: { Location: r.urls.rest(`/core/v2/media/${n.id}`), ...uploadedId(n) } }))]),
];
