// core/v2/categories and core/v2/tags (the routes every WordPress client uses; _embed of a
// post's `wp:term` links lands here). Users are in users.ts.
import { CURIES } from "./links.ts";
import { collectionArgs, EXCLUDE_INCLUDE } from "./collection-args.ts";
import { can } from "../../../../lib/capabilities.ts";
import { gql } from "../../table.ts";
import { route, type ArgSchema, type RestRequest, type SiteRoute, type OperationData } from "../route.ts";
import { contextArg, pageLinks } from "./posts.ts";

const NS = "core/v2";
const ID = "(?P<id>[\\d]+)";
type Json = OperationData;

const TERM_FIELDS = "id count description link name slug taxonomy";
const canManage = (r: { identity: RestRequest["identity"] }) => can(r.identity.site?.roles, "manage_categories");

function termBody(t: Json, context: string, r: RestRequest, base: string, hierarchical: boolean): Json {
  const body: Json = context === "embed"
    ? { id: t.id, link: t.link, name: t.name, slug: t.slug, taxonomy: t.taxonomy }
    : { id: t.id, count: t.count, description: t.description, link: t.link, name: t.name, slug: t.slug, taxonomy: t.taxonomy, ...(hierarchical ? { parent: t.parent } : {}), meta: [] };
  body._links = {
    self: [{ href: r.urls.rest(`/core/v2/${base}/${t.id}`) }],
    collection: [{ href: r.urls.rest(`/core/v2/${base}`) }],
    about: [{ href: r.urls.rest(`/core/v2/taxonomies/${t.taxonomy}`) }],
    ...(hierarchical && t.parent ? { up: [{ embeddable: true, href: r.urls.rest(`/core/v2/${base}/${t.parent}`) }] } : {}),
    "wp:post_type": [{ href: r.urls.rest(`/core/v2/posts?${base}=${t.id}`) }],
    curies: CURIES,
  };
  if (context === "embed") delete body._links;
  return body;
}

function taxonomyRoutes(base: string, type: "Category" | "Tag", plural: "categories" | "tags", hierarchical: boolean): SiteRoute[] {
  const fields = hierarchical ? `${TERM_FIELDS} parent` : TERM_FIELDS;
  const listArgs: Record<string, ArgSchema> = {
    ...collectionArgs(),
    ...EXCLUDE_INCLUDE,
    ...(hierarchical ? {} : { offset: { description: "Offset the result set by a specific number of items.", type: "integer" } }),
    order: { description: "Order sort attribute ascending or descending.", type: "string", default: "asc", enum: ["asc", "desc"] },
    orderby: { description: "Sort collection by term attribute.", type: "string", default: "name", enum: ["id", "include", "name", "slug", "include_slugs", "term_group", "description", "count"] },
    hide_empty: { description: "Whether to hide terms not assigned to any posts.", type: "boolean", default: false },
    ...(hierarchical ? { parent: { description: "Limit result set to terms assigned to a specific parent.", type: "integer" } } : {}),
    post: { description: "Limit result set to terms assigned to a specific post.", type: "integer", default: null as unknown as undefined },
    slug: { description: "Limit result set to terms with one or more specific slugs.", type: "array", items: { type: "string" } },
  };
  const writeArgs: Record<string, ArgSchema> = {
    description: { description: "HTML description of the term.", type: "string" },
    name: { description: "HTML title for the term.", type: "string" },
    slug: { description: "An alphanumeric identifier for the term unique to its type.", type: "string" },
    ...(hierarchical ? { parent: { description: "The parent term ID.", type: "integer" } } : {}),
    meta: { description: "Meta fields.", type: "object", properties: {} },
  };
  const input = (p: Json, sent: ReadonlySet<string>) => Object.fromEntries(
    ["name", "slug", "description", "parent"].filter((k) => sent.has(k) && p[k] !== undefined).map((k) => [k, p[k]]),
  );
  const idArg: ArgSchema = { description: "Unique identifier for the term.", type: "integer" };
  return [
    route(NS, `/${base}`, [
      {
        methods: ["GET"], args: listArgs, allowBatch: true,
        operation: gql`query List${plural}($where: TermWhere, $page: Int, $perPage: Int, $offset: Int, $order: SortOrder, $orderBy: TermOrderBy) {
          ${plural}(where: $where, page: $page, perPage: $perPage, offset: $offset, order: $order, orderBy: $orderBy) { totalCount totalPages nodes { ${fields} } } }`,
        variables: (r) => ({
          where: { search: r.params.search, include: r.params.include, exclude: r.params.exclude, slug: r.params.slug, parent: r.params.parent, post: r.params.post, hideEmpty: r.params.hide_empty },
          page: r.params.page, perPage: r.params.per_page, offset: r.params.offset ?? null,
          order: String(r.params.order).toUpperCase(), orderBy: String(r.params.orderby).toUpperCase(),
        }),
        respond: (data, r) => {
          const { nodes, totalCount, totalPages } = data[plural];
          const link = pageLinks(r, `/core/v2/${base}`, r.params.page, totalPages);
          return {
            body: (nodes as Json[]).map((t) => termBody(t, r.params.context, r, base, hierarchical)),
            headers: { "X-WP-Total": String(totalCount), "X-WP-TotalPages": String(totalPages), ...(link ? { Link: link } : {}) },
          };
        },
      },
      {
        methods: ["POST"], args: { ...writeArgs, name: { ...writeArgs.name, required: true } }, allowBatch: true, allowed: (i) => canManage({ identity: i }),
        operation: gql`mutation Create${type}($input: TermInput!) { create${type}(input: $input) { ${fields} } }`,
        variables: (r) => ({ input: input(r.params, r.sent) }),
        respond: (data, r) => {
          const t = data[`create${type}`];
          return { status: 201, body: termBody(t, "edit", r, base, hierarchical), headers: { Location: r.urls.rest(`/core/v2/${base}/${t.id}`) } };
        },
      },
    ]),
    route(NS, `/${base}/${ID}`, [
      {
        methods: ["GET"], args: { id: idArg, context: contextArg() }, allowBatch: true,
        operation: gql`query Read${type}($id: Int!) { ${type.toLowerCase()}(id: $id) { ${fields} } }`,
        variables: (r) => ({ id: r.params.id }),
        respond: (data, r) => ({ body: termBody(data[type.toLowerCase()], r.params.context, r, base, hierarchical) }),
      },
      {
        methods: ["POST", "PUT", "PATCH"], args: { id: idArg, ...writeArgs }, allowBatch: true, allowed: (i) => canManage({ identity: i }),
        operation: gql`mutation Update${type}($id: Int!, $input: TermInput!) { update${type}(id: $id, input: $input) { ${fields} } }`,
        variables: (r) => ({ id: r.params.id, input: input(r.params, r.sent) }),
        respond: (data, r) => ({ body: termBody(data[`update${type}`], "edit", r, base, hierarchical) }),
      },
      {
        methods: ["DELETE"], allowBatch: true, allowed: (i) => canManage({ identity: i }),
        args: { id: idArg, force: { type: "boolean", default: false, description: "Required to be true, as terms do not support trashing." } },
        operation: gql`mutation Delete${type}($id: Int!, $force: Boolean) { delete${type}(id: $id, force: $force) { deleted previous { ${fields} } } }`,
        variables: (r) => ({ id: r.params.id, force: r.params.force }),
        respond: (data, r) => {
          const { previous } = data[`delete${type}`];
          const body = termBody(previous, "edit", r, base, hierarchical);
          delete body._links;
          return { body: { deleted: true, previous: body } };
        },
      },
    ]),
  ];
}

export const termRoutes: SiteRoute[] = [
  ...taxonomyRoutes("categories", "Category", "categories", true),
  ...taxonomyRoutes("tags", "Tag", "tags", false),
];
