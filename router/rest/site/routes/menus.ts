// core/v2/menus: WordPress's menus controller (a terms controller for the flat nav_menu
// taxonomy, without count/link/taxonomy, with locations and auto_add), as data.
import { CURIES } from "./links.ts";
import { mapFields, type FieldMap } from "./field-map.ts";
import { collectionArgs, EXCLUDE_INCLUDE } from "./collection-args.ts";
import { gql } from "../../table.ts";
import { wpError } from "../errors.ts";
import { route, type ArgSchema, type RestRequest, type RestResult, type SiteRoute, type SiteUrls, type ValidatedParams } from "../route.ts";
import { phpString, sanitizeTextField } from "../../../../lib/wordpress/php-values.ts";
import { canEditMenus, canReadMenus } from "./menu-items.ts";
import { contextOf, type Context } from "./post-shape.ts";
import { contextArg, pageLinks } from "./post-type-routes.ts";

const NS = "core/v2";
const ID = "(?P<id>[\\d]+)";
type Json = Record<string, unknown>;

// ---- argument schemas (data): the terms controller's, for a flat taxonomy ----

const MENU_LIST_ARGS: Record<string, ArgSchema> = {
  ...collectionArgs(),
  ...EXCLUDE_INCLUDE,
  offset: { description: "Offset the result set by a specific number of items.", type: "integer" },
  order: { description: "Order sort attribute ascending or descending.", type: "string", default: "asc", enum: ["asc", "desc"] },
  orderby: { description: "Sort collection by term attribute.", type: "string", default: "name", enum: ["id", "include", "name", "slug", "include_slugs", "term_group", "description", "count"] },
  hide_empty: { description: "Whether to hide terms not assigned to any posts.", type: "boolean", default: false },
  post: { description: "Limit result set to terms assigned to a specific post.", type: "integer", default: null as unknown as undefined },
  slug: { description: "Limit result set to terms with one or more specific slugs.", type: "array", items: { type: "string" } },
};

function menuWriteArgs(creating: boolean): Record<string, ArgSchema> {
  return {
    description: { description: "HTML description of the term.", type: "string" },
    name: { description: "HTML title for the term.", type: "string", skipValidation: true, sanitize: (v) => sanitizeTextField(v), ...(creating ? { required: true } : {}) },
    slug: { description: "An alphanumeric identifier for the term unique to its type.", type: "string", skipValidation: true, sanitize: phpString },
    meta: { description: "Meta fields.", type: "object", properties: {} },
    locations: { description: "The locations assigned to the menu.", type: "array", items: { type: "string" } },
    auto_add: { description: "Whether to automatically add top level pages to this menu.", type: "boolean" },
  };
}

const idArg: ArgSchema = { description: "Unique identifier for the term.", type: "integer" };

const MENU_FIELDS_IN: FieldMap = { name: "name", slug: "slug", description: "description", locations: "locations", auto_add: "autoAdd" };

const menuInput = (p: ValidatedParams, sent: ReadonlySet<string>): Json => mapFields(MENU_FIELDS_IN, p, (name) => sent.has(name));

// ---- GraphQL → response ----

const MENU_FIELDS = "id name slug description locations autoAdd";

interface GraphMenu { id: number; name: string; slug: string; description: string; locations: string[]; autoAdd: boolean }

function menuLinks(m: GraphMenu, urls: SiteUrls): Record<string, unknown[]> {
  return {
    self: [{ href: urls.rest(`/core/v2/menus/${m.id}`) }],
    collection: [{ href: urls.rest("/core/v2/menus") }],
    about: [{ href: urls.rest("/core/v2/taxonomies/nav_menu") }],
    "wp:post_type": [{ href: urls.rest(`/core/v2/menu-items?menus=${m.id}`) }],
    ...(m.locations.length ? { "wp:menu-location": m.locations.map((l) => ({ embeddable: true, href: urls.rest(`/core/v2/menu-locations/${l}`) })) } : {}),
    curies: CURIES,
  };
}

/** A menu in WordPress's key order; `meta` is `[]` (no term meta is registered). */
function restMenu(m: GraphMenu, context: Context, urls: SiteUrls, withLinks = true): Json {
  const body: Json = context === "embed"
    ? { id: m.id, name: m.name, slug: m.slug }
    : { id: m.id, description: m.description, name: m.name, slug: m.slug, meta: [], locations: m.locations, auto_add: m.autoAdd };
  if (withLinks) body._links = menuLinks(m, urls);
  return body;
}

const forbiddenContext = (r: RestRequest, message: string): RestResult => wpError("rest_forbidden_context", message, r.identity.site ? 403 : 401);

// ---- operations ----

const LIST = gql`query ListMenus($where: TermWhere, $page: Int, $perPage: Int, $offset: Int, $order: SortOrder, $orderBy: TermOrderBy) {
  menus(where: $where, page: $page, perPage: $perPage, offset: $offset, order: $order, orderBy: $orderBy) { totalCount totalPages nodes { ${MENU_FIELDS} } }
}`;
const READ = gql`query ReadMenu($id: Int!) { menu(id: $id) { ${MENU_FIELDS} } }`;
const CREATE = gql`mutation CreateMenu($input: MenuInput!) { createMenu(input: $input) { ${MENU_FIELDS} } }`;
const UPDATE = gql`mutation UpdateMenu($id: Int!, $input: MenuInput!) { updateMenu(id: $id, input: $input) { ${MENU_FIELDS} } }`;
const DELETE = gql`mutation DeleteMenu($id: Int!, $force: Boolean) { deleteMenu(id: $id, force: $force) { deleted previous { ${MENU_FIELDS} } } }`;

export const menuRoutes: SiteRoute[] = [
  route(NS, "/menus", [
    {
      methods: ["GET"], args: MENU_LIST_ARGS, allowBatch: true, operation: LIST, allowed: canReadMenus,
      variables: (r) => ({
        where: { search: r.params.search, include: r.params.include, exclude: r.params.exclude, slug: r.params.slug, post: r.params.post, hideEmpty: r.params.hide_empty },
        page: r.params.page, perPage: r.params.per_page, offset: r.params.offset ?? null,
        order: String(r.params.order).toUpperCase(), orderBy: String(r.params.orderby).toUpperCase(),
      }),
      respond: (data, r) => {
        const context = contextOf(r);
        if (context === "edit" && !canEditMenus(r.identity)) return forbiddenContext(r, "Sorry, you are not allowed to edit terms in this taxonomy.");
        const { nodes, totalCount, totalPages } = data.menus as { nodes: GraphMenu[]; totalCount: number; totalPages: number };
        const link = pageLinks(r, "/core/v2/menus", r.params.page, totalPages);
        return {
          body: nodes.map((m) => restMenu(m, context, r.urls)),
          headers: { "X-WP-Total": String(totalCount), "X-WP-TotalPages": String(totalPages), ...(link ? { Link: link } : {}) },
        };
      },
    },
    {
      methods: ["POST"], args: menuWriteArgs(true), allowBatch: true, operation: CREATE, allowed: canEditMenus,
      variables: (r) => ({ input: menuInput(r.params, r.sent) }),
      respond: (data, r) => {
        const menu = data.createMenu as GraphMenu;
        return { status: 201, body: restMenu(menu, "view", r.urls), headers: { Location: r.urls.rest(`/core/v2/menus/${menu.id}`) } };
      },
    },
  ]),
  route(NS, `/menus/${ID}`, [
    {
      methods: ["GET"], args: { id: idArg, context: contextArg() }, allowBatch: true, operation: READ, allowed: canReadMenus,
      variables: (r) => ({ id: r.params.id }),
      respond: (data, r) => {
        const context = contextOf(r);
        if (context === "edit" && !canEditMenus(r.identity)) return forbiddenContext(r, "Sorry, you are not allowed to edit this term.");
        return { body: restMenu(data.menu as GraphMenu, context, r.urls) };
      },
    },
    {
      methods: ["POST", "PUT", "PATCH"], args: { id: idArg, ...menuWriteArgs(false) }, allowBatch: true, operation: UPDATE, allowed: canEditMenus,
      variables: (r) => ({ id: r.params.id, input: menuInput(r.params, r.sent) }),
      respond: (data, r) => ({ body: restMenu(data.updateMenu as GraphMenu, "view", r.urls) }),
    },
    {
      methods: ["DELETE"], allowBatch: true, operation: DELETE, allowed: canEditMenus,
      args: { id: idArg, force: { type: "boolean", default: false, description: "Required to be true, as terms do not support trashing." } },
      variables: (r) => ({ id: r.params.id, force: r.params.force }),
      respond: (data, r) => ({ body: { deleted: true, previous: restMenu((data.deleteMenu as { previous: GraphMenu }).previous, "view", r.urls, false) } }),
    },
  ]),
];
