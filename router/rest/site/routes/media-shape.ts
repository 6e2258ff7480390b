// How a media item from the graph becomes WordPress's attachment JSON (reference §5.4, recording
// 063): key order, `context` filtering, `media_details` with its sizes keyed by name, and `_links`.
import { CURIES } from "./links.ts";
import type { SiteUrls } from "../route.ts";
import type { Context } from "./post-shape.ts";

/** The fields every media route selects. */
export const MEDIA_FIELDS = `
  fragment MediaFields on MediaItem {
    id date dateGmt guid { raw rendered } modified modifiedGmt slug status type link
    title { raw rendered } authorId featuredMediaId commentStatus pingStatus template permalinkTemplate generatedSlug
    description { raw rendered } caption { raw rendered } altText mediaType mimeType
    mediaDetails {
      width height file filesize
      sizes { name file width height filesize mimeType sourceUrl }
      imageMeta { aperture credit camera caption createdTimestamp copyright focalLength iso shutterSpeed title orientation keywords }
      originalImage parentImage { attachmentId file }
    }
    post sourceUrl missingImageSizes
    viewerCan { edit delete assignAuthor unfilteredHtml }
  }`;

interface Rendered { raw: string | null; rendered: string }

export interface GraphMediaSize { name: string; file: string; width: number; height: number; filesize: number | null; mimeType: string; sourceUrl: string }

export interface GraphMedia {
  id: string; date: string; dateGmt: string; guid: Rendered; modified: string; modifiedGmt: string; slug: string; status: string;
  type: string; link: string; title: Rendered; authorId: number; featuredMediaId: number; commentStatus: string; pingStatus: string;
  template: string; permalinkTemplate: string; generatedSlug: string; description: Rendered; caption: Rendered; altText: string;
  mediaType: string; mimeType: string;
  mediaDetails: {
    width: number | null; height: number | null; file: string | null; filesize: number | null; sizes: GraphMediaSize[];
    imageMeta: {
      aperture: string; credit: string; camera: string; caption: string; createdTimestamp: string; copyright: string;
      focalLength: string; iso: string; shutterSpeed: string; title: string; orientation: string; keywords: string[];
    } | null;
    originalImage: string | null; parentImage: { attachmentId: string; file: string } | null;
  } | null;
  post: number | null; sourceUrl: string; missingImageSizes: string[];
  viewerCan: { edit: boolean; delete: boolean; assignAuthor: boolean; unfilteredHtml: boolean };
}

/** `media_details` as WordPress sends it: present members only, sizes keyed by name (`{}` when none), empty metadata as `{}`. */
export function restMediaDetails(details: GraphMedia["mediaDetails"]): Record<string, unknown> {
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
export function mediaLinks(item: GraphMedia, urls: SiteUrls, context: Context): Record<string, unknown[]> {
  const self = [{ href: urls.rest(`/core/v2/media/${item.id}`) }];
  const links: Record<string, unknown[]> = {
    self,
    collection: [{ href: urls.rest("/core/v2/media") }],
    about: [{ href: urls.rest("/core/v2/types/attachment") }],
  };
  if (item.authorId) links.author = [{ embeddable: true, href: urls.rest(`/core/v2/users/${item.authorId}`) }];
  links.replies = [{ embeddable: true, href: urls.rest(`/core/v2/comments?post=${item.id}`) }];
  if (item.featuredMediaId) links["wp:featuredmedia"] = [{ embeddable: true, href: urls.rest(`/core/v2/media/${item.featuredMediaId}`) }];
  if (context === "edit") {
    if (item.viewerCan.unfilteredHtml) links["wp:action-unfiltered-html"] = self;
    if (item.viewerCan.assignAuthor) links["wp:action-assign-author"] = self;
  }
  if (Object.keys(links).some((rel) => rel.startsWith("wp:"))) links.curies = CURIES;
  return links;
}

/** The attachment in WordPress's key order, with only the fields of the context. */
export function restMedia(item: GraphMedia, context: Context, urls: SiteUrls, withLinks = true): Record<string, unknown> {
  const edit = context === "edit";
  const text = (t: Rendered) => (edit ? { raw: t.raw ?? "", rendered: t.rendered } : { rendered: t.rendered });
  const details = restMediaDetails(item.mediaDetails);
  const body: Record<string, unknown> = context === "embed"
    ? {
      id: Number(item.id), date: item.date, slug: item.slug, type: item.type, link: item.link, title: { rendered: item.title.rendered },
      author: item.authorId, featured_media: item.featuredMediaId, caption: { rendered: item.caption.rendered }, alt_text: item.altText,
      media_type: item.mediaType, mime_type: item.mimeType, media_details: details, source_url: item.sourceUrl,
    }
    : {
      id: Number(item.id), date: item.date, date_gmt: item.dateGmt,
      guid: edit ? { rendered: item.guid.rendered, raw: item.guid.raw ?? item.guid.rendered } : { rendered: item.guid.rendered },
      modified: item.modified, modified_gmt: item.modifiedGmt, slug: item.slug, status: item.status, type: item.type, link: item.link,
      title: text(item.title), author: item.authorId, featured_media: item.featuredMediaId,
      comment_status: item.commentStatus, ping_status: item.pingStatus, template: item.template,
      // No meta is registered for attachments: an empty PHP array, so `[]`.
      meta: [],
      ...(edit ? { permalink_template: item.permalinkTemplate, generated_slug: item.generatedSlug } : {}),
      description: text(item.description), caption: text(item.caption), alt_text: item.altText,
      media_type: item.mediaType, mime_type: item.mimeType, media_details: details, post: item.post, source_url: item.sourceUrl,
      ...(edit ? { missing_image_sizes: item.missingImageSizes } : {}),
    };
  if (withLinks) body._links = mediaLinks(item, urls, context);
  return body;
}

/** `Allow` methods for one attachment, from what the caller may do with it. */
export const mediaAllow = (item: GraphMedia) =>
  ["GET", ...(item.viewerCan.edit ? ["POST", "PUT", "PATCH"] : []), ...(item.viewerCan.delete ? ["DELETE"] : [])];
