// Revisions and autosaves of a post type (WordPress's revisions and autosaves controllers): the
// revision resource, and the routes every type with revisions or autosaves gets.
import type { RevisionFieldsFragment } from "../../../../../generated/graphql/operations.ts";
import { contextArg, forceArg, upper } from "../../kit/args.ts";
import { collectionResult, contextOf, opEndpoint, type Connection, type Op } from "../../kit/crud.ts";
import { NOBODY } from "../../kit/operation.ts";
import { present, renderedSchema, type Context, type Resource } from "../../kit/resource.ts";
import { route, type ArgSchema, type GraphAllow, type RestRequest, type SiteRoute } from "../../route.ts";
import { REVISION_LIST_ARGS } from "./post-lists.ts";
import { wpGmt } from "./wp-values.ts";

export type RevisionNode = RevisionFieldsFragment;

const NS = "core/v2";
const ID = "(?P<id>[\\d]+)";
const PARENT = "(?P<parent>[\\d]+)";
const VIEW_EDIT: Context[] = ["view", "edit"];
const ALL: Context[] = ["view", "edit", "embed"];

const text = (t: { raw: string | null; rendered: string }) => ({ raw: t.raw, rendered: t.rendered });
const date = (description: string, context: Context[]): ArgSchema => ({ description, type: "string", format: "date-time", context });

/**
 * A revision of a post type whose items live under `/core/v2{base}` (the parent link). Autosaves
 * add `preview_link` in edit context; a type may answer its own `meta`.
 */
export function revisionResource(base: string, options: { autosave?: boolean; meta?: (r: RevisionNode) => unknown } = {}): Resource<RevisionNode> {
  return {
    title: options.autosave ? "post-autosave" : "post-revision",
    fields: {
      author: { schema: { description: "The ID for the author of the revision.", type: "integer", context: ALL }, read: (r) => r.authorId },
      date: { schema: date("The date the revision was published, in the site's timezone.", ALL), read: (r) => r.date },
      date_gmt: { schema: date("The date the revision was published, as GMT.", VIEW_EDIT), read: (r) => wpGmt(r.dateGmt) },
      id: { schema: { description: "Unique identifier for the revision.", type: "integer", context: ALL }, read: (r) => r.id },
      modified: { schema: date("The date the revision was last modified, in the site's timezone.", VIEW_EDIT), read: (r) => r.modified },
      modified_gmt: { schema: date("The date the revision was last modified, as GMT.", VIEW_EDIT), read: (r) => wpGmt(r.modifiedGmt) },
      parent: { schema: { description: "The ID for the parent of the revision.", type: "integer", context: ALL }, read: (r) => r.parent },
      slug: { schema: { description: "An alphanumeric identifier for the revision unique to its type.", type: "string", context: ALL }, read: (r) => r.slug },
      // WordPress emits the guid as {rendered, raw}, the other texts as {raw, rendered}.
      guid: {
        schema: { ...renderedSchema("The globally unique identifier for the post.", "GUID for the post, as it exists in the database.", "GUID for the post, transformed for display."), context: VIEW_EDIT },
        read: (r) => ({ rendered: r.guid.rendered, raw: r.guid.raw }),
      },
      title: { schema: renderedSchema("The title for the post.", "Title for the post, as it exists in the database.", "HTML title for the post, transformed for display."), read: (r) => text(r.title) },
      content: {
        schema: { ...renderedSchema("The content for the post.", "Content for the post, as it exists in the database.", "HTML content for the post, transformed for display.", { rendered: VIEW_EDIT }), context: VIEW_EDIT },
        read: (r) => text(r.content),
      },
      excerpt: { schema: renderedSchema("The excerpt for the post.", "Excerpt for the post, as it exists in the database.", "HTML excerpt for the post, transformed for display."), read: (r) => text(r.excerpt) },
      meta: { schema: { description: "Meta fields.", type: "object", context: VIEW_EDIT }, read: options.meta ?? ((r) => ({ footnotes: r.meta.footnotes })) },
      ...(options.autosave ? {
        preview_link: { schema: { description: "Preview link for the post.", type: "string", format: "uri", context: ["edit"], readonly: true }, read: (r: RevisionNode) => r.previewLink },
      } : {}),
    },
    links: (r, view) => ({ parent: [{ href: view.urls.rest(`/${NS}${base}/${r.parent}`) }] }),
  };
}

/** A revision in a context; the parent link only when it has a parent and links are wanted. */
const presentRevision = (resource: Resource<RevisionNode>, r: RevisionNode, request: RestRequest, context: Context, links = true) =>
  present(resource, r, { context, urls: request.urls }, { links: links && r.parent !== 0 });

/** The variables of a revisions list, as every post type's `…Revisions` field takes them. */
export const revisionListVariables = (r: RestRequest) => ({
  parent: r.params.parent as number,
  where: { search: r.params.search, include: r.params.include, exclude: r.params.exclude },
  page: r.params.page as number, perPage: r.params.per_page ?? null, offset: r.params.offset ?? null,
  order: upper<"ASC" | "DESC">(r.params.order), orderBy: upper<"DATE" | "ID" | "INCLUDE" | "RELEVANCE" | "SLUG" | "INCLUDE_SLUGS" | "TITLE">(r.params.orderby),
});

/** `{parent, id}` of the routes under one revision or autosave. */
export const revisionId = (r: RestRequest) => ({ parent: r.params.parent as number, id: r.params.id as number });

const parentArg: ArgSchema = { description: "The ID for the parent of the revision.", type: "integer" };
const idArg = (description: string): ArgSchema => ({ description, type: "integer" });

/** `{base}/{parent}/revisions` and `{base}/{parent}/revisions/{id}`: list, read, and the delete nobody may do. */
export function revisionRoutes(base: string, ops: { list: Op<Connection<RevisionNode>>; read: Op<RevisionNode>; remove: Op<RevisionNode> }): SiteRoute[] {
  const resource = revisionResource(base);
  return [
    route(NS, `${base}/${PARENT}/revisions`, [opEndpoint({ methods: ["GET"], args: REVISION_LIST_ARGS(parentArg) }, ops.list, (page, r) =>
      collectionResult(r, `/${NS}${base}/${r.params.parent}/revisions`, page, page.nodes.map((n) => presentRevision(resource, n, r, contextOf(r)))))]),
    route(NS, `${base}/${PARENT}/revisions/${ID}`, [
      opEndpoint({ methods: ["GET"], args: { parent: parentArg, id: idArg("Unique identifier for the revision."), context: contextArg() } }, ops.read,
        (revision, r) => ({ body: presentRevision(resource, revision, r, contextOf(r)) })),
      // Nobody may delete a revision in WordPress (delete_post maps to do_not_allow), so DELETE is never in Allow.
      opEndpoint({
        methods: ["DELETE"], allowed: NOBODY,
        args: { parent: parentArg, id: idArg("Unique identifier for the revision."), force: forceArg("Required to be true, as revisions do not support trashing.") },
      }, ops.remove, (previous, r) => ({ body: { deleted: true, previous: presentRevision(resource, previous, r, "view") } })),
    ]),
  ];
}

export interface AutosaveSpec {
  /** The autosave resource (its meta and parent link are the type's). */
  resource: Resource<RevisionNode>;
  ops: { list: Op<RevisionNode[]>; create: Op<RevisionNode>; read: Op<RevisionNode> };
  /** The type's update arguments (an autosave takes the item's fields). */
  writeArgs: Record<string, ArgSchema>;
  allowed?: GraphAllow;
  parentArg: ArgSchema;
}

/** `{base}/{id}/autosaves` (list, create) and `{base}/{parent}/autosaves/{id}` (read). */
export function autosaveRoutes(base: string, spec: AutosaveSpec): SiteRoute[] {
  const { resource, ops, allowed } = spec;
  return [
    route(NS, `${base}/${ID}/autosaves`, [
      opEndpoint({ methods: ["GET"], args: { parent: spec.parentArg, context: contextArg() }, allowed }, ops.list,
        (autosaves, r) => ({ body: autosaves.map((a) => presentRevision(resource, a, r, contextOf(r))) })),
      // An author's draft autosave answers with the post itself, in the revision shape and without links.
      opEndpoint({ methods: ["POST"], args: { parent: spec.parentArg, ...spec.writeArgs }, allowed }, ops.create,
        (autosave, r) => ({ body: presentRevision(resource, autosave, r, "edit") })),
    ]),
    route(NS, `${base}/${PARENT}/autosaves/${ID}`, [
      opEndpoint({ methods: ["GET"], args: { parent: spec.parentArg, id: idArg("The ID for the autosave."), context: contextArg() }, allowed }, ops.read,
        (autosave, r) => ({ body: presentRevision(resource, autosave, r, contextOf(r)) })),
    ]),
  ];
}
