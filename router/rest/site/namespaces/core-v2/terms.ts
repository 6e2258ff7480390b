// core/v2/categories and core/v2/tags: WordPress's terms controller for the hierarchical category
// and the flat post_tag taxonomy (the routes every client uses; _embed of a post's `wp:term`
// links lands here). The term fields and list arguments are shared with menus.ts. Each endpoint
// is one typed operation of terms.graphql.
import {
  CreateCategoryDocument, CreateTagDocument, DeleteCategoryDocument, DeleteTagDocument, ListCategoriesDocument, ListTagsDocument,
  ReadCategoryDocument, ReadTagDocument, SitePermissionsDocument, UpdateCategoryDocument, UpdateTagDocument,
  type CategoryFieldsFragment, type TagFieldsFragment, type TermOrderBy,
} from "../../../../../generated/graphql/operations.ts";
import type { ArgSchema, RestRequest, SiteRoute } from "../../route.ts";
import { strs, int, bool, collectionArgs, EXCLUDE_INCLUDE, offsetArg, orderArg, pageSize, upper, type Args } from "../../kit/args.ts";
import { byId, crudRoutes, deletion, inputOf, op, removal, type Connection, type Op } from "../../kit/crud.ts";
import { allowedBy } from "../../kit/operation.ts";
import { CURIES, type Context, type Field, type Resource } from "../../kit/resource.ts";

const VIEW_EDIT: Context[] = ["view", "edit"];
const ALL: Context[] = ["view", "edit", "embed"];

/** The fields every taxonomy's terms share (a taxonomy places its own among them). */
export const termFields = {
  id: { schema: { description: "Unique identifier for the term.", type: "integer", context: ALL, readonly: true }, read: (t: { id: number }) => t.id },
  description: {
    schema: { description: "HTML description of the term.", type: "string", context: VIEW_EDIT }, read: (t: { description: string }) => t.description, input: "description",
  },
  name: {
    schema: { description: "HTML title for the term.", type: "string", context: ALL }, read: (t: { name: string }) => t.name, input: "name", requiredOnCreate: true,
  },
  slug: {
    schema: { description: "An alphanumeric identifier for the term unique to its type.", type: "string", context: ALL }, read: (t: { slug: string }) => t.slug, input: "slug",
  },
  // No term meta is registered: an empty PHP array.
  meta: { schema: { description: "Meta fields.", type: "object", context: VIEW_EDIT, properties: {} }, read: () => [] },
} satisfies Record<string, Field<never>>;

/** The terms controller's collection arguments; a flat taxonomy takes `offset`, a hierarchical one `parent`. */
export const termListArgs = (list: "categories" | "tags" | "menus", hierarchical: boolean): Args => ({
  ...collectionArgs(pageSize(list)),
  ...EXCLUDE_INCLUDE,
  ...(hierarchical ? {} : { offset: offsetArg }),
  order: orderArg("asc"),
  orderby: { description: "Sort collection by term attribute.", type: "string", default: "name", enum: ["id", "include", "name", "slug", "include_slugs", "term_group", "description", "count"] },
  hide_empty: { description: "Whether to hide terms not assigned to any posts.", type: "boolean", default: false },
  ...(hierarchical ? { parent: { description: "Limit result set to terms assigned to a specific parent.", type: "integer" } } : {}),
  post: { description: "Limit result set to terms assigned to a specific post.", type: "integer", default: null },
  slug: { description: "Limit result set to terms with one or more specific slugs.", type: "array", items: { type: "string" } },
});

/** The variables of a terms list (the graph's TermWhere and paging). */
export const termListVariables = (r: RestRequest) => ({
  where: { search: r.params.search, include: r.params.include, exclude: r.params.exclude, slug: strs(r.params.slug), parent: r.params.parent, post: int(r.params.post), hideEmpty: bool(r.params.hide_empty) },
  page: r.params.page as number, perPage: r.params.per_page as number, offset: r.params.offset ?? null,
  order: upper<"ASC" | "DESC">(r.params.order), orderBy: upper<TermOrderBy>(r.params.orderby),
});

export const termIdArg: ArgSchema = { description: "Unique identifier for the term.", type: "integer" };
export const TERM_FORCE = "Required to be true, as terms do not support trashing.";

type TermNode = CategoryFieldsFragment | TagFieldsFragment;

interface Taxonomy { base: "categories" | "tags"; name: "category" | "post_tag"; hierarchical: boolean }

function termResource(t: Taxonomy): Resource<TermNode> {
  const { id, description, name, slug, meta } = termFields;
  return {
    title: t.name === "post_tag" ? "tag" : t.name,
    fields: {
      id,
      count: { schema: { description: "Number of published posts for the term.", type: "integer", context: VIEW_EDIT, readonly: true }, read: (n) => n.count },
      description,
      link: { schema: { description: "URL of the term.", type: "string", format: "uri", context: ALL, readonly: true }, read: (n) => n.link },
      name, slug,
      taxonomy: { schema: { description: "Type attribution for the term.", type: "string", enum: [t.name], context: ALL, readonly: true }, read: (n) => n.taxonomy },
      ...(t.hierarchical ? {
        parent: { schema: { description: "The parent term ID.", type: "integer", context: VIEW_EDIT }, read: (n: TermNode) => ("parent" in n ? n.parent : undefined), input: "parent" },
      } : {}),
      meta,
    },
    // Embedded terms (a post's wp:term) are answered without links.
    links: (n, view) => (view.context === "embed" ? undefined : {
      self: [{ href: view.urls.rest(`/core/v2/${t.base}/${n.id}`) }],
      collection: [{ href: view.urls.rest(`/core/v2/${t.base}`) }],
      about: [{ href: view.urls.rest(`/core/v2/taxonomies/${n.taxonomy}`) }],
      ...("parent" in n && n.parent ? { up: [{ embeddable: true, href: view.urls.rest(`/core/v2/${t.base}/${n.parent}`) }] } : {}),
      "wp:post_type": [{ href: view.urls.rest(`/core/v2/posts?${t.base}=${n.id}`) }],
      curies: CURIES,
    }),
  };
}

interface TermOps {
  list: Op<Connection<TermNode>>; create: Op<TermNode>; read: Op<TermNode>; update: Op<TermNode>; delete: Op<{ deleted: boolean; node: TermNode }>;
}

/** manage_categories, as the graph answers it; reading terms is open to anyone. */
const canManage = allowedBy(SitePermissionsDocument, (d) => d.viewerCan?.manageTerms ?? false);

const taxonomyRoutes = (t: Taxonomy, resource: Resource<TermNode>, ops: TermOps): SiteRoute[] => crudRoutes({
  namespace: "core/v2", path: `/${t.base}`, resource, batch: true, idArg: termIdArg,
  allow: { create: canManage, update: canManage, delete: canManage },
  list: { args: termListArgs(t.base, t.hierarchical), op: ops.list },
  create: { op: ops.create }, read: { op: ops.read }, update: { op: ops.update }, delete: { force: TERM_FORCE, op: ops.delete },
});

const CATEGORIES: Taxonomy = { base: "categories", name: "category", hierarchical: true };
const TAGS: Taxonomy = { base: "tags", name: "post_tag", hierarchical: false };
const CATEGORY = termResource(CATEGORIES);
const TAG = termResource(TAGS);
const categoryInput = inputOf(CATEGORY);
const tagInput = inputOf(TAG);

export const termRoutes: SiteRoute[] = [
  ...taxonomyRoutes(CATEGORIES, CATEGORY, {
    list: op(ListCategoriesDocument, termListVariables, (d) => d.categories!),
    create: op(CreateCategoryDocument, (r) => ({ input: categoryInput(r) }), (d) => d.createCategory!),
    read: op(ReadCategoryDocument, byId, (d) => d.category!),
    update: op(UpdateCategoryDocument, (r) => ({ ...byId(r), input: categoryInput(r) }), (d) => d.updateCategory!),
    delete: op(DeleteCategoryDocument, removal, (d) => deletion(d.deleteCategory!)),
  }),
  ...taxonomyRoutes(TAGS, TAG, {
    list: op(ListTagsDocument, termListVariables, (d) => d.tags!),
    create: op(CreateTagDocument, (r) => ({ input: tagInput(r) }), (d) => d.createTag!),
    read: op(ReadTagDocument, byId, (d) => d.tag!),
    update: op(UpdateTagDocument, (r) => ({ ...byId(r), input: tagInput(r) }), (d) => d.updateTag!),
    delete: op(DeleteTagDocument, removal, (d) => deletion(d.deleteTag!)),
  }),
];
