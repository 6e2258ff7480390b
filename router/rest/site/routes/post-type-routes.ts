// The routes of one post type (posts, pages), as WordPress's posts controller registers them for
// every type: collection, item, revisions and autosaves (seed 000 §4.2). The argument schemas
// are WordPress's (the index, validation and coercion derive from them); each endpoint is one
// GraphQL operation and a mapping of its result back to WordPress's response.
import { mapFields, rawText, type FieldMap } from "./field-map.ts";
import { FILTER_STATUSES, FORMATS, SETTABLE_STATUSES } from "../../../../lib/wordpress/post-values.ts";
import { collectionArgs, contextArg, idList } from "./collection-args.ts";
import qs from "qs";
import { can } from "../../../../lib/capabilities.ts";
import type { Identity } from "../../../../lib/identity.ts";
import { gql } from "../../table.ts";
import { wpError } from "../errors.ts";
import { route, type ArgSchema, type RestRequest, type RestResult, type SiteRoute, type ValidatedParams } from "../route.ts";
import {
  contextOf, postAllow, postFields, postVariables, restPost, restRevision, REVISION_FIELDS,
  type Context, type GraphPost, type GraphRevision, type PostTypeShape,
} from "./post-shape.ts";

const NS = "core/v2";
const ID = "(?P<id>[\\d]+)";
const PARENT = "(?P<parent>[\\d]+)";


// ---- argument schemas (data) ----

export { contextArg };

export const termFilter = (name: string, hierarchical: boolean, exclude: boolean): ArgSchema => ({
  description: exclude
    ? `Limit result set to items except those with specific terms assigned in the ${name} taxonomy.`
    : `Limit result set to items with specific terms assigned in the ${name} taxonomy.`,
  type: ["object", "array"],
  oneOf: [
    { title: "Term ID List", description: "Match terms with the listed IDs.", type: "array", items: { type: "integer" } },
    {
      title: "Term ID Taxonomy Query", description: "Perform an advanced term query.", type: "object",
      properties: {
        terms: { description: "Term IDs.", type: "array", items: { type: "integer" }, default: [] },
        ...(hierarchical ? { include_children: { description: "Whether to include child terms in the terms limiting the result set.", type: "boolean", default: false } } : {}),
        ...(exclude ? {} : { operator: { description: "Whether items must be assigned all or any of the specified terms.", type: "string", enum: ["AND", "OR"], default: "OR" } }),
      },
      additionalProperties: false,
    },
  ],
});

const dateArg = (description: string): ArgSchema => ({ description, type: "string", format: "date-time" });

export const POST_LIST_ARGS: Record<string, ArgSchema> = {
  ...collectionArgs(),
  after: dateArg("Limit response to posts published after a given ISO8601 compliant date."),
  modified_after: dateArg("Limit response to posts modified after a given ISO8601 compliant date."),
  author: idList("Limit result set to posts assigned to specific authors."),
  author_exclude: idList("Ensure result set excludes posts assigned to specific authors."),
  before: dateArg("Limit response to posts published before a given ISO8601 compliant date."),
  modified_before: dateArg("Limit response to posts modified before a given ISO8601 compliant date."),
  exclude: idList("Ensure result set excludes specific IDs."),
  include: idList("Limit result set to specific IDs."),
  search_semantics: { description: "How to interpret the search input.", type: "string", enum: ["exact"] },
  offset: { description: "Offset the result set by a specific number of items.", type: "integer" },
  order: { description: "Order sort attribute ascending or descending.", type: "string", default: "desc", enum: ["asc", "desc"] },
  orderby: {
    description: "Sort collection by post attribute.", type: "string", default: "date",
    enum: ["author", "date", "id", "include", "modified", "parent", "relevance", "slug", "include_slugs", "title"],
  },
  search_columns: { description: "Array of column names to be searched.", type: "array", items: { type: "string", enum: ["post_title", "post_content", "post_excerpt"] }, default: [] },
  slug: { description: "Limit result set to posts with one or more specific slugs.", type: "array", items: { type: "string" } },
  status: {
    description: "Limit result set to posts assigned one or more statuses.", type: "array",
    items: { type: "string", enum: FILTER_STATUSES }, default: "publish",
  },
  tax_relation: { description: "Limit result set based on relationship between multiple taxonomies.", type: "string", enum: ["AND", "OR"] },
  categories: termFilter("categories", true, false),
  categories_exclude: termFilter("categories", true, true),
  tags: termFilter("tags", false, false),
  tags_exclude: termFilter("tags", false, true),
  sticky: { description: "Limit result set to items that are sticky.", type: "boolean" },
  format: { description: "Limit result set to items assigned one or more given formats.", type: "array", uniqueItems: true, items: { enum: FORMATS, type: "string" } },
};

/** The argument set without the named arguments (order kept). */
export const omit = (args: Record<string, ArgSchema>, names: string[]) => Object.fromEntries(Object.entries(args).filter(([name]) => !names.includes(name)));
const PAGE_LIST_BASE = omit(POST_LIST_ARGS, ["sticky", "format", "tax_relation", "categories", "categories_exclude", "tags", "tags_exclude"]);

/** L-page: L-post without sticky/format/terms; adds menu_order, parent, parent_exclude; orderby menu_order. */
export const PAGE_LIST_ARGS: Record<string, ArgSchema> = Object.fromEntries(Object.entries(PAGE_LIST_BASE).flatMap(([name, schema]) => {
  if (name === "include") return [[name, schema], ["menu_order", { description: "Limit result set to posts with a specific menu_order value.", type: "integer" }]];
  if (name === "orderby") return [[name, { ...schema, enum: [...(schema.enum ?? []), "menu_order"] }], ["parent", idList("Limit result set to items with particular parent IDs.")], ["parent_exclude", idList("Limit result set to all items except those of a particular parent ID.")]];
  return [[name, schema]];
}));

const rendered = (what: string): ArgSchema => ({
  description: `The ${what} for the post.`, type: "object", skipValidation: true,
  properties: {
    raw: { description: `${what[0].toUpperCase()}${what.slice(1)} for the post, as it exists in the database.`, type: "string", context: ["edit"] },
    rendered: { description: `HTML ${what} for the post, transformed for display.`, type: "string", context: ["view", "edit"], readonly: true },
  },
});

const POST_WRITE_ARGS: Record<string, ArgSchema> = {
  date: { description: "The date the post was published, in the site's timezone.", type: ["string", "null"], format: "date-time" },
  date_gmt: { description: "The date the post was published, as GMT.", type: ["string", "null"], format: "date-time" },
  slug: { description: "An alphanumeric identifier for the post unique to its type.", type: "string" },
  status: { description: "A named status for the post.", type: "string", enum: SETTABLE_STATUSES },
  password: { description: "A password to protect access to the content and excerpt.", type: "string" },
  title: rendered("title"),
  content: rendered("content"),
  author: { description: "The ID for the author of the post.", type: "integer" },
  excerpt: rendered("excerpt"),
  featured_media: { description: "The ID of the featured media for the post.", type: "integer" },
  comment_status: { description: "Whether or not comments are open on the post.", type: "string", enum: ["open", "closed"] },
  ping_status: { description: "Whether or not the post can be pinged.", type: "string", enum: ["open", "closed"] },
  format: { description: "The format for the post.", type: "string", enum: FORMATS },
  meta: {
    description: "Meta fields.", type: "object",
    properties: { footnotes: { type: "string", description: "", default: "" } },
  },
  sticky: { description: "Whether or not the post should be treated as sticky.", type: "boolean" },
  template: { description: "The theme file to use to display the post.", type: "string" },
  categories: { description: "The terms assigned to the post in the category taxonomy.", type: "array", items: { type: "integer" } },
  tags: { description: "The terms assigned to the post in the post_tag taxonomy.", type: "array", items: { type: "integer" } },
};

const PAGE_WRITE_ARGS: Record<string, ArgSchema> = {
  ...omit(POST_WRITE_ARGS, ["format", "sticky", "categories", "tags"]),
  parent: { description: "The ID for the parent of the post.", type: "integer" },
  menu_order: { description: "The order of the post in relation to other posts.", type: "integer" },
};

const idArg: ArgSchema = { description: "Unique identifier for the post.", type: "integer" };
const parentArg: ArgSchema = { description: "The ID for the parent of the revision.", type: "integer" };

// ---- request → GraphQL ----

const POST_FIELDS_IN: FieldMap = {
  date: "date", date_gmt: "dateGmt", slug: "slug", status: "status", password: "password",
  title: ["title", rawText], content: ["content", rawText], excerpt: ["excerpt", rawText],
  author: "author", featured_media: "featuredMedia", comment_status: "commentStatus", ping_status: "pingStatus",
  format: "format", sticky: "sticky", template: "template", categories: "categories", tags: "tags",
  parent: "parent", menu_order: "menuOrder",
  meta: ["meta", (v) => (v && typeof v === "object" && typeof (v as { footnotes?: unknown }).footnotes === "string" ? { footnotes: (v as { footnotes: string }).footnotes } : undefined)],
};

/** The GraphQL post input from the fields the request actually sent. */
export const postInput = (params: ValidatedParams, sent: ReadonlySet<string>): Record<string, unknown> =>
  mapFields(POST_FIELDS_IN, params, (name) => sent.has(name));

const termFilterVar = (value: unknown) => {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.length ? { terms: value } : undefined;
  const v = value as { terms?: number[]; operator?: string; include_children?: boolean };
  return { terms: v.terms ?? [], operator: v.operator ?? "OR", includeChildren: v.include_children ?? false };
};

/** REST list argument → field of the GraphQL `…Where` input. */
const WHERE_FIELDS: FieldMap = {
  search: "search",
  search_columns: ["searchColumns", (v) => (v as string[]).map((c) => c.toUpperCase())],
  search_semantics: ["searchSemantics", () => "EXACT"],
  after: "after", before: "before", modified_after: "modifiedAfter", modified_before: "modifiedBefore",
  author: "author", author_exclude: "authorExclude", include: "include", exclude: "exclude", slug: "slug", status: "status",
  tax_relation: "taxRelation",
  categories: ["categories", termFilterVar], categories_exclude: ["categoriesExclude", termFilterVar],
  tags: ["tags", termFilterVar], tags_exclude: ["tagsExclude", termFilterVar],
  menus: ["menus", termFilterVar], menus_exclude: ["menusExclude", termFilterVar],
  sticky: "sticky", format: "format", parent: "parent", parent_exclude: "parentExclude", menu_order: "menuOrder",
};

/** The list filter from the route's own arguments (a parameter the route does not declare is ignored, as in WordPress). */
export const listWhere = (args: Record<string, ArgSchema>, params: ValidatedParams) =>
  mapFields(WHERE_FIELDS, params, (name) => name in args);

// ---- GraphQL → response ----

/** The Link header of a collection page: the same query with `page` replaced (prev/next). */
export function pageLinks(request: RestRequest, collectionPath: string, page: number, totalPages: number): string | undefined {
  const links: string[] = [];
  const base = request.urls.rest(collectionPath);
  const href = (p: number) => `${base}?${qs.stringify({ ...request.query, page: p })}`;
  if (page > 1) links.push(`<${href(Math.min(page - 1, Math.max(totalPages, 1)) || 0)}>; rel="prev"`);
  if (totalPages > page) links.push(`<${href(page + 1)}>; rel="next"`);
  return links.length ? links.join(", ") : undefined;
}

export const canEditType = (identity: Identity) => can(identity.site?.roles, "edit_posts");
const forbiddenContext = (identity: Identity, message: string): RestResult =>
  wpError("rest_forbidden_context", message, identity.site ? 403 : 401);

function postResponse(shape: PostTypeShape, post: GraphPost, request: RestRequest, context: Context, status = 200): RestResult {
  return { status, body: restPost(shape, post, context, request.urls), headers: { Allow: postAllow(post).join(", ") } };
}

// ---- the routes of one post type ----

export interface RestPostType extends PostTypeShape {
  /** GraphQL type name: "Post", "Page"; field names derive from it (posts, createPost, postRevisions…). */
  graph: "Post" | "Page";
  listArgs: Record<string, ArgSchema>;
  writeArgs: Record<string, ArgSchema>;
}

const ORDERS = (value: unknown) => String(value ?? "").toUpperCase();

export function postTypeRoutes(t: RestPostType): SiteRoute[] {
  const G = t.graph;
  const one = G.toLowerCase();
  const list = `${one}s`;
  const path = `/core/v2/${t.base}`;
  const FIELDS = postFields(t);
  const fragment = `...${G}Fields`;
  const op = {
    list: gql`query List${G}s($where: ${G}Where, $page: Int, $perPage: Int, $offset: Int, $order: SortOrder, $orderBy: ${G}OrderBy, $editing: Boolean, $excerptLength: Int) {
      ${list}(where: $where, page: $page, perPage: $perPage, offset: $offset, order: $order, orderBy: $orderBy) { totalCount totalPages nodes { ${fragment} } } } ${FIELDS}`,
    read: gql`query Read${G}($id: ID!, $password: String, $editing: Boolean, $excerptLength: Int) { ${one}(id: $id, password: $password) { ${fragment} } } ${FIELDS}`,
    create: gql`mutation Create${G}($input: ${G}Input!, $editing: Boolean, $excerptLength: Int) { create${G}(input: $input) { ${fragment} } } ${FIELDS}`,
    update: gql`mutation Update${G}($id: ID!, $input: ${G}Input!, $editing: Boolean, $excerptLength: Int) { update${G}(id: $id, input: $input) { ${fragment} } } ${FIELDS}`,
    delete: gql`mutation Delete${G}($id: ID!, $force: Boolean, $editing: Boolean, $excerptLength: Int) {
      delete${G}(id: $id, force: $force) { deleted ${one} { ${fragment} } } } ${FIELDS}`,
    revisions: gql`query List${G}Revisions($parent: Int!, $where: RevisionWhere, $page: Int, $perPage: Int, $offset: Int, $order: SortOrder, $orderBy: RevisionOrderBy) {
      ${one}Revisions(parent: $parent, where: $where, page: $page, perPage: $perPage, offset: $offset, order: $order, orderBy: $orderBy) { totalCount totalPages nodes { ...RevisionFields } } } ${REVISION_FIELDS}`,
    revision: gql`query Read${G}Revision($parent: Int!, $id: Int!) { ${one}Revision(parent: $parent, id: $id) { ...RevisionFields } } ${REVISION_FIELDS}`,
    deleteRevision: gql`mutation Delete${G}Revision($parent: Int!, $id: Int!, $force: Boolean) {
      delete${G}Revision(parent: $parent, id: $id, force: $force) { deleted previous { ...RevisionFields } } } ${REVISION_FIELDS}`,
    autosaves: gql`query List${G}Autosaves($parent: Int!) { ${one}Autosaves(parent: $parent) { ...RevisionFields } } ${REVISION_FIELDS}`,
    createAutosave: gql`mutation Create${G}Autosave($parent: Int!, $input: ${G}Input!) { create${G}Autosave(parent: $parent, input: $input) { ...RevisionFields } } ${REVISION_FIELDS}`,
    autosave: gql`query Read${G}Autosave($parent: Int!, $id: Int!) { ${one}Autosave(parent: $parent, id: $id) { ...RevisionFields } } ${REVISION_FIELDS}`,
  };
  const revisionShape: PostTypeShape = { base: t.base, type: t.type };
  return [
    route(NS, `/${t.base}`, [
      {
        methods: ["GET"], args: t.listArgs, allowBatch: true, operation: op.list,
        variables: (r) => ({
          where: listWhere(t.listArgs, r.params), page: r.params.page, perPage: r.params.per_page, offset: r.params.offset ?? null,
          order: ORDERS(r.params.order), orderBy: ORDERS(r.params.orderby), ...postVariables(r),
        }),
        respond: (data, r) => {
          const context = contextOf(r);
          if (context === "edit" && !canEditType(r.identity)) return forbiddenContext(r.identity, "Sorry, you are not allowed to edit posts in this post type.");
          const { nodes, totalCount, totalPages } = data[list] as { nodes: GraphPost[]; totalCount: number; totalPages: number };
          // Since WordPress 6.9, edit context keeps only what the caller may edit; the totals still count everything.
          const visible = context === "edit" ? nodes.filter((n) => n.viewerCan.edit) : nodes;
          const link = pageLinks(r, path, r.params.page, totalPages);
          return {
            body: visible.map((n) => restPost(t, n, context, r.urls)),
            headers: { "X-WP-Total": String(totalCount), "X-WP-TotalPages": String(totalPages), ...(link ? { Link: link } : {}) },
          };
        },
      },
      {
        methods: ["POST"], args: t.writeArgs, allowBatch: true, operation: op.create, allowed: canEditType,
        variables: (r) => ({ input: postInput(r.params, r.sent), editing: true, excerptLength: null }),
        respond: (data, r) => {
          const post = data[`create${G}`] as GraphPost;
          // The collection route answered, so its Allow stands (not the new item's).
          return { status: 201, body: restPost(t, post, "edit", r.urls), headers: { Location: r.urls.rest(`${path}/${post.id}`) } };
        },
      },
    ]),
    route(NS, `/${t.base}/${ID}`, [
      {
        methods: ["GET"], allowBatch: true, operation: op.read,
        args: {
          id: idArg, context: contextArg(),
          excerpt_length: { description: "Override the default excerpt length.", type: "integer" },
          password: { description: "The password for the post if it is password protected.", type: "string" },
        },
        // Only a wrong password given in the query string is an error (WordPress checks that one alone).
        variables: (r) => ({ id: String(r.params.id), password: typeof r.query.password === "string" ? r.query.password : r.params.password ?? null, ...postVariables(r) }),
        respond: (data, r) => {
          const post = data[one] as GraphPost;
          const context = contextOf(r);
          if (context === "edit" && !post.viewerCan.edit) return forbiddenContext(r.identity, "Sorry, you are not allowed to edit this post.");
          const result = postResponse(t, post, r, context);
          return { ...result, headers: { ...result.headers, Link: `<${post.link}>; rel="alternate"; type=text/html` } };
        },
      },
      {
        methods: ["POST", "PUT", "PATCH"], allowBatch: true, operation: op.update, allowed: canEditType,
        args: { id: idArg, ...t.writeArgs },
        variables: (r) => ({ id: String(r.params.id), input: postInput(r.params, r.sent), editing: true, excerptLength: null }),
        respond: (data, r) => postResponse(t, data[`update${G}`] as GraphPost, r, "edit"),
      },
      {
        methods: ["DELETE"], allowBatch: true, operation: op.delete, allowed: canEditType,
        args: { id: idArg, force: { type: "boolean", default: false, description: "Whether to bypass Trash and force deletion." } },
        variables: (r) => ({ id: String(r.params.id), force: r.params.force, editing: true, excerptLength: null }),
        respond: (data, r) => {
          const result = data[`delete${G}`] as { deleted: boolean } & Record<string, GraphPost>;
          if (!result.deleted) return postResponse(t, result[one], r, "edit");
          return { body: { deleted: true, previous: restPost(t, result[one], "edit", r.urls, false) } };
        },
      },
    ]),
    route(NS, `/${t.base}/${PARENT}/revisions`, [{
      methods: ["GET"], operation: op.revisions,
      args: {
        parent: parentArg, context: contextArg(),
        page: { description: "Current page of the collection.", type: "integer", default: 1, minimum: 1 },
        per_page: { description: "Maximum number of items to be returned in result set.", type: "integer", minimum: 1, maximum: 100 },
        search: { description: "Limit results to those matching a string.", type: "string" },
        exclude: idList("Ensure result set excludes specific IDs."),
        include: idList("Limit result set to specific IDs."),
        offset: { description: "Offset the result set by a specific number of items.", type: "integer" },
        order: { description: "Order sort attribute ascending or descending.", type: "string", default: "desc", enum: ["asc", "desc"] },
        orderby: { description: "Sort collection by object attribute.", type: "string", default: "date", enum: ["date", "id", "include", "relevance", "slug", "include_slugs", "title"] },
      },
      variables: (r) => ({
        parent: r.params.parent, where: { search: r.params.search, include: r.params.include, exclude: r.params.exclude },
        page: r.params.page, perPage: r.params.per_page ?? null, offset: r.params.offset ?? null,
        order: ORDERS(r.params.order), orderBy: ORDERS(r.params.orderby),
      }),
      respond: (data, r) => {
        const { nodes, totalCount, totalPages } = data[`${one}Revisions`] as { nodes: GraphRevision[]; totalCount: number; totalPages: number };
        const link = pageLinks(r, `${path}/${r.params.parent}/revisions`, r.params.page, totalPages);
        return {
          body: nodes.map((n) => restRevision(revisionShape, n, contextOf(r), r.urls)),
          headers: { "X-WP-Total": String(totalCount), "X-WP-TotalPages": String(totalPages), ...(link ? { Link: link } : {}) },
        };
      },
    }]),
    route(NS, `/${t.base}/${PARENT}/revisions/${ID}`, [
      {
        methods: ["GET"], operation: op.revision,
        args: { parent: parentArg, id: { description: "Unique identifier for the revision.", type: "integer" }, context: contextArg() },
        variables: (r) => ({ parent: r.params.parent, id: r.params.id }),
        respond: (data, r) => ({ body: restRevision(revisionShape, data[`${one}Revision`] as GraphRevision, contextOf(r), r.urls) }),
      },
      {
        // Nobody may delete a revision in WordPress (delete_post maps to do_not_allow), so DELETE is never in Allow.
        methods: ["DELETE"], operation: op.deleteRevision, allowed: () => false,
        args: {
          parent: parentArg, id: { description: "Unique identifier for the revision.", type: "integer" },
          force: { type: "boolean", default: false, description: "Required to be true, as revisions do not support trashing." },
        },
        variables: (r) => ({ parent: r.params.parent, id: r.params.id, force: r.params.force }),
        respond: (data, r) => {
          const result = data[`delete${G}Revision`] as { deleted: boolean; previous: GraphRevision };
          return { body: { deleted: true, previous: restRevision(revisionShape, result.previous, "view", r.urls) } };
        },
      },
    ]),
    route(NS, `/${t.base}/${ID}/autosaves`, [
      {
        methods: ["GET"], operation: op.autosaves,
        args: { parent: parentArg, context: contextArg() },
        // The route names the post {id}; WordPress calls the same value `parent`.
        variables: (r) => ({ parent: Number(r.params.id) }),
        respond: (data, r) => ({ body: (data[`${one}Autosaves`] as GraphRevision[]).map((a) => restRevision(revisionShape, a, contextOf(r), r.urls, { autosave: true })) }),
      },
      {
        methods: ["POST"], operation: op.createAutosave, allowed: canEditType,
        args: { parent: parentArg, ...t.writeArgs },
        variables: (r) => ({ parent: Number(r.params.id), input: postInput(r.params, r.sent) }),
        respond: (data, r) => {
          const autosave = data[`create${G}Autosave`] as GraphRevision;
          // An author's draft autosave answers with the post itself, in the revision shape and without links.
          return { body: restRevision(revisionShape, autosave, "edit", r.urls, { autosave: true, links: autosave.parent !== 0 }) };
        },
      },
    ]),
    route(NS, `/${t.base}/${PARENT}/autosaves/${ID}`, [{
      methods: ["GET"], operation: op.autosave,
      args: { parent: parentArg, id: { description: "The ID for the autosave.", type: "integer" }, context: contextArg() },
      variables: (r) => ({ parent: r.params.parent, id: r.params.id }),
      respond: (data, r) => ({ body: restRevision(revisionShape, data[`${one}Autosave`] as GraphRevision, contextOf(r), r.urls, { autosave: true }) }),
    }]),
  ];
}

export const POSTS: RestPostType = { graph: "Post", base: "posts", type: "post", listArgs: POST_LIST_ARGS, writeArgs: POST_WRITE_ARGS };
export const PAGES: RestPostType = { graph: "Page", base: "pages", type: "page", listArgs: PAGE_LIST_ARGS, writeArgs: PAGE_WRITE_ARGS };
