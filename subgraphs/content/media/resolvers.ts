// Thin resolvers of the media schema (media.graphql): arguments in, media domain
// functions out; MediaItem fields are derived from the attachment row.
import type { Resolvers } from "../../../generated/graphql/content-resolvers.ts";
import type { Post } from "../../../generated/prisma/client.ts";
import { fail } from "../../../lib/errors.ts";
import type { ContentContext } from "../context.ts";
import { canDeletePost, canEditOthers, canEditPost, hasCap } from "../permissions.ts";
import { postPermalink } from "../posts/permalinks.ts";
import { relayList } from "../connections.ts";
import { postIdArg, type IdType } from "../nodes/nodes.ts";
import { relativeUri } from "../posts/resolvers.ts";
import { refId, type EntityRef } from "../../../lib/entity-ref.ts";
import { databaseIdOf, toGlobalId } from "../../../lib/global-id.ts";
import { renderTitle } from "../posts/rendering.ts";
import { formatWpDate } from "../site/site.ts";
import {
  createMedia, deleteMedia, editMedia, listMedia, missingImageSizes, processMedia, readableAttachment, readMedia, updateMedia,
  type MediaEditInput, type MediaFileInput, type MediaInput, type MediaListArgs,
} from "./attachments.ts";
import { mediaTypeOf } from "../../../lib/media/file-types.ts";
import { attachmentMeta } from "./metadata.ts";
import { attachmentLink, generatedSlug, mediaDetails, renderCaption, renderDescription, sourceUrl } from "./presentation.ts";
import { mediaStorage } from "../../../lib/media/storage.ts";

/** A mutation's media id: a global id or the database id. */
const mediaId = (id: string | number) => databaseIdOf(id, "post") ?? fail("rest_post_invalid_id");

/** The permalink of the post an attachment belongs to (ancestors through the loader), or null. */
async function parentLink(ctx: ContentContext, post: Post): Promise<string | null> {
  const parent = post.parentId > 0 ? await ctx.loaders.post.load(post.parentId) : null;
  return parent ? postPermalink(ctx, parent) : null;
}
const storageOf = (ctx: ContentContext) => mediaStorage(ctx.config);
/** Raw (stored) values are for those who may edit the item. */
const raw = (ctx: ContentContext, post: Post, value: string) => (canEditPost(ctx.viewer, post) ? value : null);

type ListWhere = Omit<NonNullable<MediaListArgs["where"]>, "mediaType"> & { mediaType?: string | null };

export const mediaResolvers: Resolvers = {
  Query: {
    mediaItems: async (_: unknown, args: Omit<MediaListArgs, "where"> & { where?: ListWhere | null }, ctx: ContentContext) => {
      const where = args.where ? { ...args.where, mediaType: args.where.mediaType?.toLowerCase() } : args.where;
      return relayList("media", { ...args, where }, (a) => listMedia(ctx, a));
    },
    mediaItem: async (_: unknown, args: { id: string | number; idType?: IdType | null }, ctx: ContentContext) =>
      readMedia(ctx, await postIdArg(ctx, "attachment", args.id, args.idType ?? "ID", "MediaItem")),
  },

  Mutation: {
    createMediaItem: (_: unknown, args: { file: MediaFileInput; input?: MediaInput | null }, ctx: ContentContext) => createMedia(ctx, args.file, args.input ?? {}),
    updateMediaItem: (_: unknown, args: { id: string; input: MediaInput }, ctx: ContentContext) => updateMedia(ctx, mediaId(args.id), args.input),
    deleteMediaItem: (_: unknown, args: { id: string; force?: boolean | null }, ctx: ContentContext) => deleteMedia(ctx, mediaId(args.id), args.force ?? false),
    editMediaItem: (_: unknown, args: { id: string; input: MediaEditInput }, ctx: ContentContext) => editMedia(ctx, mediaId(args.id), args.input),
    processMediaItem: (_: unknown, args: { id: string; action: "CREATE_IMAGE_SUBSIZES" }, ctx: ContentContext) => processMedia(ctx, mediaId(args.id), args.action),
  },

  MediaItem: {
    __resolveReference: (ref: EntityRef, ctx: ContentContext) => readableAttachment(ctx, refId(ref, "post")),
    id: (post: Post) => toGlobalId("post", post.id),
    databaseId: (post: Post) => post.id,
    uri: async (post: Post, _: unknown, ctx: ContentContext) => {
      const home = (await ctx.site()).home;
      return relativeUri(attachmentLink(post, await parentLink(ctx, post), home), home);
    },
    date: (post: Post) => formatWpDate(post.date),
    dateGmt: async (post: Post, _: unknown, ctx: ContentContext) => formatWpDate(post.dateGmt ?? (await ctx.site()).clock.toGmt(post.date)),
    modified: (post: Post) => formatWpDate(post.modified),
    modifiedGmt: (post: Post) => formatWpDate(post.modifiedGmt),
    guid: (post: Post, _: unknown, ctx: ContentContext) => ({ raw: raw(ctx, post, post.guid), rendered: post.guid }),
    link: async (post: Post, _: unknown, ctx: ContentContext) => attachmentLink(post, await parentLink(ctx, post), (await ctx.site()).home),
    title: (post: Post, _: unknown, ctx: ContentContext) => ({ raw: raw(ctx, post, post.title), rendered: renderTitle(post.title) }),
    authorId: (post: Post) => post.authorId,
    author: (post: Post, _: unknown, ctx: ContentContext) => (post.authorId ? ctx.loaders.user.load(post.authorId) : null),
    featuredMediaId: (post: Post) => post.featuredMedia,
    featuredMedia: (post: Post, _: unknown, ctx: ContentContext) => (post.featuredMedia ? readableAttachment(ctx, post.featuredMedia) : null),
    permalinkTemplate: async (post: Post, _: unknown, ctx: ContentContext) => attachmentLink(post, await parentLink(ctx, post), (await ctx.site()).home, true),
    generatedSlug: (post: Post) => generatedSlug(post),
    description: (post: Post, _: unknown, ctx: ContentContext) => ({ raw: raw(ctx, post, post.content), rendered: renderDescription(post, storageOf(ctx)) }),
    caption: (post: Post, _: unknown, ctx: ContentContext) => ({ raw: raw(ctx, post, post.excerpt), rendered: renderCaption(post, storageOf(ctx)) }),
    altText: (post: Post) => attachmentMeta(post)._wp_attachment_image_alt ?? "",
    mediaType: (post: Post) => mediaTypeOf(post.mimeType),
    mimeType: (post: Post) => post.mimeType,
    mediaDetails: (post: Post, _: unknown, ctx: ContentContext) => mediaDetails(post, storageOf(ctx)),
    post: (post: Post) => (post.parentId > 0 ? post.parentId : null),
    sourceUrl: (post: Post, _: unknown, ctx: ContentContext) => sourceUrl(post, storageOf(ctx)),
    missingImageSizes: (post: Post, _: unknown, ctx: ContentContext) => (canEditPost(ctx.viewer, post) ? missingImageSizes(post) : []),
    viewerCan: (post: Post, _: unknown, ctx: ContentContext) => ({
      edit: canEditPost(ctx.viewer, post),
      delete: canDeletePost(ctx.viewer, post),
      // Media has no publish action, sticky flag or taxonomies.
      publish: false, sticky: false, assignTerms: false, createTerms: false,
      assignAuthor: canEditOthers(ctx.viewer, post.type),
      unfilteredHtml: hasCap(ctx.viewer, "unfiltered_html"),
    }),
  },

  /** Featured images of posts and pages: through the post loader, so a list adds no statements per item. */
  Post: { featuredMedia: (post: Post, _: unknown, ctx: ContentContext) => (post.featuredMedia ? readableAttachment(ctx, post.featuredMedia) : null) },
  Page: { featuredMedia: (post: Post, _: unknown, ctx: ContentContext) => (post.featuredMedia ? readableAttachment(ctx, post.featuredMedia) : null) },
};
