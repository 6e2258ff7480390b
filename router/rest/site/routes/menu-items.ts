// core/v2/menu-items: WordPress's menu items controller (a posts controller for nav_menu_item)
// and its autosaves routes, as data. The argument schemas are WordPress's (L-menu for the
// collection; the item schema with its create-only defaults, custom url validator and
// sanitizers); each endpoint is one GraphQL operation of the content subgraph.
import { CURIES } from "./links.ts";
import { mapFields, rawText, type FieldMap } from "./field-map.ts";
import { can } from "../../../../lib/capabilities.ts";
import type { Identity } from "../../../../lib/identity.ts";
import { gql } from "../../table.ts";
import { wpError } from "../errors.ts";
import { route, type ArgSchema, type RestRequest, type RestResult, type SiteRoute, type SiteUrls, type ValidatedParams } from "../route.ts";
import { sanitizeClassList, sanitizeKey } from "../../../../lib/wordpress/sanitize-names.ts";
import { sanitizeTextField, sanitizeUrl } from "../../../../lib/wordpress/php-values.ts";
import { contextOf, REVISION_FIELDS, restRevision, type Context, type GraphRevision } from "./post-shape.ts";
import { contextArg, listWhere, pageLinks, POST_LIST_ARGS, termFilter } from "./post-type-routes.ts";
import { SETTABLE_STATUSES } from "../../../../lib/wordpress/post-values.ts";

const NS = "core/v2";
const ID = "(?P<id>[\\d]+)";
const PARENT = "(?P<parent>[\\d]+)";
type Json = Record<string, unknown>;

/** Reading menus needs edit_theme_options or edit_posts; everything else, edit_theme_options. */
export const canReadMenus = (identity: Identity) => can(identity.site?.roles, "edit_theme_options") || can(identity.site?.roles, "edit_posts");
export const canEditMenus = (identity: Identity) => can(identity.site?.roles, "edit_theme_options");

// ---- argument schemas (data) ----

const POST_ONLY = ["author", "author_exclude", "categories", "categories_exclude", "tags", "tags_exclude", "sticky", "format"];

/** L-menu: L-post without author and post taxonomies; 100 a page in menu order; menus filters; menu_order last. */
const MENU_ITEM_LIST_ARGS: Record<string, ArgSchema> = {
  ...Object.fromEntries(Object.entries(POST_LIST_ARGS).filter(([name]) => !POST_ONLY.includes(name)).flatMap(([name, schema]) => {
    if (name === "per_page") return [[name, { ...schema, default: 100 }]];
    if (name === "order") return [[name, { ...schema, default: "asc" }]];
    if (name === "orderby") return [[name, { ...schema, description: "Sort collection by object attribute.", default: "menu_order", enum: [...(schema.enum ?? []), "menu_order"] }]];
    if (name === "tax_relation") return [[name, schema], ["menus", termFilter("menus", false, false)], ["menus_exclude", termFilter("menus", false, true)]];
    return [[name, schema]];
  })),
  menu_order: { description: "Limit result set to posts with a specific menu_order value.", type: "integer" },
};

/** Arguments WordPress sanitizes with its own callback skip schema validation (so `5` is a fine attr_title). */
const sanitized = (schema: ArgSchema, sanitize: (value: unknown) => unknown): ArgSchema => ({ ...schema, skipValidation: true, sanitize });

/** The menu item schema's writable fields; `defaults` only on create, as get_endpoint_args_for_item_schema does. */
function menuItemWriteArgs(defaults: boolean): Record<string, ArgSchema> {
  const withDefault = (schema: ArgSchema, value: unknown): ArgSchema => (defaults ? { ...schema, default: value } : schema);
  return {
    title: {
      description: "The title for the object.", type: ["string", "object"],
      properties: {
        raw: { description: "Title for the object, as it exists in the database.", type: "string", context: ["edit"] },
        rendered: { description: "HTML title for the object, transformed for display.", type: "string", context: ["view", "edit", "embed"], readonly: true },
      },
    },
    type: withDefault({ description: "The family of objects originally represented, such as \"post_type\" or \"taxonomy\".", type: "string", enum: ["taxonomy", "post_type", "post_type_archive", "custom"] }, "custom"),
    status: withDefault({ description: "A named status for the object.", type: "string", enum: SETTABLE_STATUSES }, "publish"),
    parent: withDefault({ description: "The ID for the parent of the object.", type: "integer", minimum: 0 }, 0),
    attr_title: sanitized({ description: "Text for the title attribute of the link element for this menu item.", type: "string" }, (v) => sanitizeTextField(v)),
    classes: sanitized({ description: "Class names for the link element of this menu item.", type: "array", items: { type: "string" } }, sanitizeClassList),
    description: sanitized({ description: "The description of this menu item.", type: "string" }, (v) => sanitizeTextField(v)),
    menu_order: withDefault({ description: "The DB ID of the nav_menu_item that is this item's menu parent, if any, otherwise 0.", type: "integer", minimum: 1 }, 1),
    object: sanitized({ description: "The type of object originally represented, such as \"category\", \"post\", or \"attachment\".", type: "string" }, sanitizeKey),
    object_id: withDefault({ description: "The database ID of the original object this menu item represents, for example the ID for posts or the term_id for categories.", type: "integer", minimum: 0 }, 0),
    target: { description: "The target attribute of the link element for this menu item.", type: "string", enum: ["_blank", ""] },
    url: {
      description: "The URL to which this menu item points.", type: "string", format: "uri",
      // WordPress replaces the uri check: "" or anything sanitize_url keeps is fine (javascript: is not).
      validate: (value) => (value === "" || sanitizeUrl(value) !== "" ? undefined : { code: "rest_invalid_url", message: "Invalid URL." }),
    },
    xfn: sanitized({ description: "The XFN relationship expressed in the link of this menu item.", type: "array", items: { type: "string" } }, sanitizeClassList),
    menus: { description: "The terms assigned to the object in the nav_menu taxonomy.", type: "integer" },
    meta: {
      description: "Meta fields.", type: "object",
      properties: { _lang_menu_item: { description: "Language switcher settings", type: "object", additionalProperties: { type: "boolean" } } },
    },
  };
}

const idArg: ArgSchema = { description: "Unique identifier for the post.", type: "integer" };
const autosaveParentArg: ArgSchema = { description: "The ID for the parent of the autosave.", type: "integer" };

// ---- request → GraphQL ----

const MENU_ITEM_FIELDS_IN: FieldMap = {
  // A string title is used as is, an object's non-empty raw too; anything else leaves the title alone.
  title: ["title", (t) => (typeof t === "string" ? t : rawText(t) || undefined)],
  type: "type", status: "status", parent: "parent", attr_title: "attrTitle", classes: "classes",
  description: "description", menu_order: "menuOrder", object: "object", object_id: "objectId",
  target: "target", url: "url", xfn: "xfn", menus: "menus",
  meta: ["meta", (m) => {
    const flags = (m as { _lang_menu_item?: unknown } | null)?._lang_menu_item;
    return flags && typeof flags === "object"
      ? { langMenuItem: Object.entries(flags as Record<string, boolean>).map(([name, value]) => ({ name, value })) }
      : undefined;
  }],
};

/** The menu item input from what was sent (absent fields keep their values on update; the subgraph applies create defaults). */
const menuItemInput = (params: ValidatedParams, sent: ReadonlySet<string>): Json =>
  mapFields(MENU_ITEM_FIELDS_IN, params, (name) => sent.has(name));

// ---- GraphQL → response ----

const MENU_ITEM_FIELDS = `
  fragment MenuItemFields on MenuItem {
    id title { raw rendered } status url attrTitle description type typeLabel object objectId parent menuOrder
    target classes xfn invalid meta { langMenuItem { name value } } menuId linkedObject { type restPath }
    viewerCan { edit delete publish unfilteredHtml createMenus assignMenus }
  }`;

interface GraphMenuItem {
  id: number; title: { raw: string | null; rendered: string }; status: string; url: string; attrTitle: string; description: string;
  type: string; typeLabel: string; object: string; objectId: number; parent: number; menuOrder: number; target: string;
  classes: string[]; xfn: string[]; invalid: boolean; meta: { langMenuItem: { name: string; value: boolean }[] };
  menuId: number | null; linkedObject: { type: string; restPath: string } | null;
  viewerCan: { edit: boolean; delete: boolean; publish: boolean; unfilteredHtml: boolean; createMenus: boolean; assignMenus: boolean };
}

/** Registered meta: the language switcher flags, `[]` when unset (an empty PHP array). */
const restMeta = (item: GraphMenuItem) =>
  ({ _lang_menu_item: item.meta.langMenuItem.length ? Object.fromEntries(item.meta.langMenuItem.map((f) => [f.name, f.value])) : [] });

function menuItemLinks(item: GraphMenuItem, urls: SiteUrls, context: Context): Record<string, unknown[]> {
  const self = [{ href: urls.rest(`/core/v2/menu-items/${item.id}`) }];
  const links: Record<string, unknown[]> = {
    self,
    collection: [{ href: urls.rest("/core/v2/menu-items") }],
    about: [{ href: urls.rest("/core/v2/types/nav_menu_item") }],
    "wp:term": [{ taxonomy: "nav_menu", embeddable: true, href: urls.rest(`/core/v2/menus?post=${item.id}`) }],
  };
  if ((item.type === "post_type" || item.type === "taxonomy") && item.linkedObject) {
    links["wp:menu-item-object"] = [{ [item.type]: item.linkedObject.type, embeddable: true, href: urls.rest(`/core/v2${item.linkedObject.restPath}`) }];
  }
  if (context === "edit") {
    const can = item.viewerCan;
    if (can.publish) links["wp:action-publish"] = self;
    if (can.unfilteredHtml) links["wp:action-unfiltered-html"] = self;
    if (can.createMenus) links["wp:action-create-menus"] = self;
    if (can.assignMenus) links["wp:action-assign-menus"] = self;
  }
  links.curies = CURIES;
  return links;
}

/** A menu item in WordPress's key order: every field in every context but `meta` and `menus` (not embed); `menus` only when in a menu. */
function restMenuItem(item: GraphMenuItem, context: Context, urls: SiteUrls, withLinks = true): Json {
  const body: Json = {
    id: item.id,
    title: context === "edit" ? { raw: item.title.raw ?? item.title.rendered, rendered: item.title.rendered } : { rendered: item.title.rendered },
    status: item.status, url: item.url, attr_title: item.attrTitle, description: item.description, type: item.type,
    type_label: item.typeLabel, object: item.object, object_id: item.objectId, parent: item.parent, menu_order: item.menuOrder,
    target: item.target, classes: item.classes, xfn: item.xfn, invalid: item.invalid,
  };
  if (context !== "embed") {
    body.meta = restMeta(item);
    if (item.menuId !== null) body.menus = item.menuId;
  }
  if (withLinks) body._links = menuItemLinks(item, urls, context);
  return body;
}

/** An autosave of a menu item: the revision shape, with the item type's meta and a parent link to the item. */
function restMenuItemAutosave(r: GraphRevision, context: Context, urls: SiteUrls, links: boolean): Json {
  // The shape argument only names the parent link's base, which is built here instead.
  const body = restRevision({ base: "posts", type: "post" }, r, context, urls, { autosave: true, links: false });
  if ("meta" in body) body.meta = { _lang_menu_item: [] };
  if (links && r.parent) body._links = { parent: [{ href: urls.rest(`/core/v2/menu-items/${r.parent}`) }] };
  return body;
}

const forbiddenContext = (identity: Identity, message: string): RestResult => wpError("rest_forbidden_context", message, identity.site ? 403 : 401);

// ---- operations ----

const LIST = gql`query ListMenuItems($where: MenuItemWhere, $page: Int, $perPage: Int, $offset: Int, $order: SortOrder, $orderBy: MenuItemOrderBy) {
  menuItems(where: $where, page: $page, perPage: $perPage, offset: $offset, order: $order, orderBy: $orderBy) { totalCount totalPages nodes { ...MenuItemFields } }
} ${MENU_ITEM_FIELDS}`;
const READ = gql`query ReadMenuItem($id: Int!) { menuItem(id: $id) { ...MenuItemFields } } ${MENU_ITEM_FIELDS}`;
const CREATE = gql`mutation CreateMenuItem($input: MenuItemInput!) { createMenuItem(input: $input) { ...MenuItemFields } } ${MENU_ITEM_FIELDS}`;
const UPDATE = gql`mutation UpdateMenuItem($id: Int!, $input: MenuItemInput!) { updateMenuItem(id: $id, input: $input) { ...MenuItemFields } } ${MENU_ITEM_FIELDS}`;
const DELETE = gql`mutation DeleteMenuItem($id: Int!, $force: Boolean) { deleteMenuItem(id: $id, force: $force) { deleted previous { ...MenuItemFields } } } ${MENU_ITEM_FIELDS}`;
const AUTOSAVES = gql`query ListMenuItemAutosaves($parent: Int!) { menuItemAutosaves(parent: $parent) { ...RevisionFields } } ${REVISION_FIELDS}`;
const CREATE_AUTOSAVE = gql`mutation CreateMenuItemAutosave($parent: Int!, $input: MenuItemInput!) {
  createMenuItemAutosave(parent: $parent, input: $input) { ...RevisionFields }
} ${REVISION_FIELDS}`;
const AUTOSAVE = gql`query ReadMenuItemAutosave($parent: Int!, $id: Int!) { menuItemAutosave(parent: $parent, id: $id) { ...RevisionFields } } ${REVISION_FIELDS}`;

const upper = (value: unknown) => String(value ?? "").toUpperCase();
const itemResponse = (item: GraphMenuItem, r: RestRequest, context: Context, status = 200): RestResult => ({ status, body: restMenuItem(item, context, r.urls) });

export const menuItemRoutes: SiteRoute[] = [
  route(NS, "/menu-items", [
    {
      methods: ["GET"], args: MENU_ITEM_LIST_ARGS, allowBatch: true, operation: LIST, allowed: canReadMenus,
      variables: (r) => ({
        where: listWhere(MENU_ITEM_LIST_ARGS, r.params), page: r.params.page, perPage: r.params.per_page, offset: r.params.offset ?? null,
        order: upper(r.params.order), orderBy: upper(r.params.orderby),
      }),
      respond: (data, r) => {
        const context = contextOf(r);
        if (context === "edit" && !canEditMenus(r.identity)) return forbiddenContext(r.identity, "Sorry, you are not allowed to edit posts in this post type.");
        const { nodes, totalCount, totalPages } = data.menuItems as { nodes: GraphMenuItem[]; totalCount: number; totalPages: number };
        const link = pageLinks(r, "/core/v2/menu-items", r.params.page, totalPages);
        return {
          body: nodes.map((n) => restMenuItem(n, context, r.urls)),
          headers: { "X-WP-Total": String(totalCount), "X-WP-TotalPages": String(totalPages), ...(link ? { Link: link } : {}) },
        };
      },
    },
    {
      methods: ["POST"], args: menuItemWriteArgs(true), allowBatch: true, operation: CREATE, allowed: canEditMenus,
      variables: (r) => ({ input: menuItemInput(r.params, r.sent) }),
      respond: (data, r) => {
        const item = data.createMenuItem as GraphMenuItem;
        return { ...itemResponse(item, r, "edit", 201), headers: { Location: r.urls.rest(`/core/v2/menu-items/${item.id}`) } };
      },
    },
  ]),
  route(NS, `/menu-items/${ID}`, [
    {
      methods: ["GET"], args: { id: idArg, context: contextArg() }, allowBatch: true, operation: READ, allowed: canReadMenus,
      variables: (r) => ({ id: r.params.id }),
      respond: (data, r) => {
        const item = data.menuItem as GraphMenuItem;
        const context = contextOf(r);
        if (context === "edit" && !item.viewerCan.edit) return forbiddenContext(r.identity, "Sorry, you are not allowed to edit this post.");
        return itemResponse(item, r, context);
      },
    },
    {
      methods: ["POST", "PUT", "PATCH"], args: { id: idArg, ...menuItemWriteArgs(false) }, allowBatch: true, operation: UPDATE, allowed: canEditMenus,
      variables: (r) => ({ id: r.params.id, input: menuItemInput(r.params, r.sent) }),
      respond: (data, r) => itemResponse(data.updateMenuItem as GraphMenuItem, r, "edit"),
    },
    {
      methods: ["DELETE"], allowBatch: true, operation: DELETE, allowed: canEditMenus,
      args: { id: idArg, force: { type: "boolean", default: false, description: "Whether to bypass Trash and force deletion." } },
      variables: (r) => ({ id: r.params.id, force: r.params.force }),
      // Menu items cannot be trashed, so this is always a deletion: the item as it was, in view context, without links.
      respond: (data, r) => ({ body: { deleted: true, previous: restMenuItem((data.deleteMenuItem as { previous: GraphMenuItem }).previous, "view", r.urls, false) } }),
    },
  ]),
  route(NS, `/menu-items/${ID}/autosaves`, [
    {
      methods: ["GET"], args: { parent: autosaveParentArg, context: contextArg() }, operation: AUTOSAVES, allowed: canEditMenus,
      // The path's {id} is not a declared argument, so it arrives as a string.
      variables: (r) => ({ parent: Number(r.params.id) }),
      respond: (data, r) => ({ body: (data.menuItemAutosaves as GraphRevision[]).map((a) => restMenuItemAutosave(a, contextOf(r), r.urls, true)) }),
    },
    {
      // The item's own update arguments, whose `parent` (the parent menu item) replaces the route's.
      methods: ["POST"], args: { parent: autosaveParentArg, ...menuItemWriteArgs(false) }, operation: CREATE_AUTOSAVE, allowed: canEditMenus,
      variables: (r) => ({ parent: Number(r.params.id), input: menuItemInput(r.params, r.sent) }),
      respond: (data, r) => {
        const autosave = data.createMenuItemAutosave as GraphRevision;
        // An author's draft item answers with the item itself, in the revision shape and without links.
        return { body: restMenuItemAutosave(autosave, "edit", r.urls, autosave.parent !== 0) };
      },
    },
  ]),
  route(NS, `/menu-items/${PARENT}/autosaves/${ID}`, [{
    methods: ["GET"], operation: AUTOSAVE, allowed: canEditMenus,
    args: { parent: autosaveParentArg, id: { description: "The ID for the autosave.", type: "integer" }, context: contextArg() },
    variables: (r) => ({ parent: r.params.parent, id: r.params.id }),
    respond: (data, r) => ({ body: restMenuItemAutosave(data.menuItemAutosave as GraphRevision, contextOf(r), r.urls, true) }),
  }]),
];
