// core/v2/menu-items: WordPress's menu items controller (a posts controller for nav_menu_item)
// and its autosaves routes. The collection takes L-menu; the item schema has its create-only
// defaults, a custom url validator and sanitizers. Each endpoint is one typed operation of
// menu-items.graphql.
import {
  CreateMenuItemAutosaveDocument, CreateMenuItemDocument, DeleteMenuItemDocument, ListMenuItemAutosavesDocument, ListMenuItemsDocument,
  ReadMenuItemAutosaveDocument, ReadMenuItemDocument, SitePermissionsDocument, UpdateMenuItemDocument,
  type MenuItemFieldsFragment, type MenuItemOrderBy,
} from "../../../../../generated/graphql/operations.ts";
import { sanitizeTextField, sanitizeUrl } from "../../../../../lib/wordpress/php-values.ts";
import { SETTABLE_STATUSES } from "../../../../../lib/wordpress/post-values.ts";
import { sanitizeClassList, sanitizeKey } from "../../../../../lib/wordpress/sanitize-names.ts";
import type { ArgSchema, SiteRoute } from "../../route.ts";
import { collectionArgs, omit, pageSize, termFilter, upper, type Args } from "../../kit/args.ts";
import { byId, crudRoutes, deletion, inputOf, op, removal } from "../../kit/crud.ts";
import { allowedBy } from "../../kit/operation.ts";
import { CURIES, writeArgs, type Context, type Field, type Links, type Resource, type View } from "../../kit/resource.ts";
import { insertAfter, listWhere, menuOrderFilter, POST_LIST_ARGS } from "./post-lists.ts";
import { rawText } from "./posts.ts";
import { autosaveRoutes, revisionId, revisionResource } from "./revisions.ts";
import { toEnum, wpMenuItemType, wpStatus } from "./wp-values.ts";

type MenuItemNode = MenuItemFieldsFragment;

const ALL: Context[] = ["view", "edit", "embed"];
const VIEW_EDIT: Context[] = ["view", "edit"];

/** L-menu: L-post without authors and post taxonomies; 100 a page in menu order; the menus filters; menu_order last. */
const L_POST = omit(POST_LIST_ARGS, ["author", "author_exclude", "categories", "categories_exclude", "tags", "tags_exclude", "sticky", "format"]);
const MENU_ITEM_LIST_ARGS: Args = {
  ...insertAfter(L_POST, "tax_relation", { menus: termFilter("menus", false, false), menus_exclude: termFilter("menus", false, true) }),
  per_page: collectionArgs(pageSize("menuItems")).per_page,
  order: { ...L_POST.order, default: "asc" },
  orderby: { ...L_POST.orderby, description: "Sort collection by object attribute.", default: "menu_order", enum: [...(L_POST.orderby.enum ?? []), "menu_order"] },
  menu_order: menuOrderFilter,
};

/** Arguments WordPress sanitizes with its own callback skip schema validation (so `5` is a fine attr_title). */
const sanitized = (sanitize: (value: unknown) => unknown): Partial<ArgSchema> => ({ skipValidation: true, sanitize });
const scalar = (description: string, type: ArgSchema["type"], extra: Partial<ArgSchema> = {}): ArgSchema => ({ description, type, context: ALL, ...extra });

/** Registered meta: the language switcher flags, `[]` when unset (an empty PHP array). */
const langMenuItem = (n: MenuItemNode) =>
  (n.meta.langMenuItem.length ? Object.fromEntries(n.meta.langMenuItem.map((f) => [f.name, f.value])) : []);
const langMenuItemInput = (m: unknown) => {
  const flags = (m as { _lang_menu_item?: unknown } | null)?._lang_menu_item;
  return flags && typeof flags === "object"
    ? { langMenuItem: Object.entries(flags as Record<string, boolean>).map(([name, value]) => ({ name, value })) }
    : undefined;
};

/** The menu item schema, in WordPress's order (the arguments follow it; the response has its own). */
const fields: Record<string, Field<MenuItemNode>> = {
  title: {
    schema: {
      description: "The title for the object.", type: ["string", "object"], context: ALL,
      properties: {
        raw: { description: "Title for the object, as it exists in the database.", type: "string", context: ["edit"] },
        rendered: { description: "HTML title for the object, transformed for display.", type: "string", context: ALL, readonly: true },
      },
    },
    read: (n) => ({ raw: n.title.raw ?? n.title.rendered, rendered: n.title.rendered }),
    // A string title is used as is, an object's non-empty raw too; anything else leaves the title alone.
    input: ["title", (t) => (typeof t === "string" ? t : rawText(t) || undefined)],
  },
  id: { schema: scalar("Unique identifier for the object.", "integer", { readonly: true }), read: (n) => n.id },
  type_label: { schema: scalar("The singular label used to describe this type of menu item.", "string", { readonly: true }), read: (n) => n.typeLabel },
  type: {
    schema: scalar("The family of objects originally represented, such as \"post_type\" or \"taxonomy\".", "string", { enum: ["taxonomy", "post_type", "post_type_archive", "custom"] }),
    read: (n) => wpMenuItemType(n.type), input: ["type", toEnum], createDefault: "custom",
  },
  status: { schema: scalar("A named status for the object.", "string", { enum: SETTABLE_STATUSES }), read: (n) => wpStatus(n.status), input: ["status", toEnum], createDefault: "publish" },
  parent: { schema: scalar("The ID for the parent of the object.", "integer", { minimum: 0 }), read: (n) => n.parent, input: "parent", createDefault: 0 },
  attr_title: {
    schema: scalar("Text for the title attribute of the link element for this menu item.", "string"), read: (n) => n.attrTitle, input: "attrTitle",
    arg: sanitized((v) => sanitizeTextField(v)),
  },
  classes: {
    schema: scalar("Class names for the link element of this menu item.", "array", { items: { type: "string" } }), read: (n) => n.classes, input: "classes",
    arg: sanitized(sanitizeClassList),
  },
  description: { schema: scalar("The description of this menu item.", "string"), read: (n) => n.description, input: "description", arg: sanitized((v) => sanitizeTextField(v)) },
  // (WordPress's own description of menu_order.)
  menu_order: {
    schema: scalar("The DB ID of the nav_menu_item that is this item's menu parent, if any, otherwise 0.", "integer", { minimum: 1 }),
    read: (n) => n.menuOrder, input: "menuOrder", createDefault: 1,
  },
  object: {
    schema: scalar("The type of object originally represented, such as \"category\", \"post\", or \"attachment\".", "string"), read: (n) => n.object, input: "object",
    arg: sanitized(sanitizeKey),
  },
  object_id: {
    schema: scalar("The database ID of the original object this menu item represents, for example the ID for posts or the term_id for categories.", "integer", { minimum: 0 }),
    read: (n) => n.objectId, input: "objectId", createDefault: 0,
  },
  target: { schema: scalar("The target attribute of the link element for this menu item.", "string", { enum: ["_blank", ""] }), read: (n) => n.target, input: "target" },
  url: {
    schema: scalar("The URL to which this menu item points.", "string", { format: "uri" }), read: (n) => n.url, input: "url",
    // WordPress replaces the uri check: "" or anything sanitize_url keeps is fine (javascript: is not).
    arg: { validate: (value) => (value === "" || sanitizeUrl(value) !== "" ? undefined : { code: "rest_invalid_url", message: "Invalid URL." }) },
  },
  xfn: {
    schema: scalar("The XFN relationship expressed in the link of this menu item.", "array", { items: { type: "string" } }), read: (n) => n.xfn, input: "xfn",
    arg: sanitized(sanitizeClassList),
  },
  invalid: { schema: scalar("Whether the menu item represents an object that no longer exists.", "boolean", { readonly: true }), read: (n) => n.invalid },
  // Only for an item in a menu (an orphan has no `menus` key).
  menus: {
    schema: { description: "The terms assigned to the object in the nav_menu taxonomy.", type: "integer", context: VIEW_EDIT },
    read: (n) => n.menuId ?? undefined, input: "menus",
  },
  meta: {
    schema: {
      description: "Meta fields.", type: "object", context: VIEW_EDIT,
      properties: { _lang_menu_item: { description: "Language switcher settings", type: "object", additionalProperties: { type: "boolean" } } },
    },
    read: (n) => ({ _lang_menu_item: langMenuItem(n) }), input: ["meta", langMenuItemInput],
  },
};

function menuItemLinks(n: MenuItemNode, { urls, context }: View): Links {
  const self = [{ href: urls.rest(`/core/v2/menu-items/${n.id}`) }];
  const links: Links = {
    self,
    collection: [{ href: urls.rest("/core/v2/menu-items") }],
    about: [{ href: urls.rest("/core/v2/types/nav_menu_item") }],
    "wp:term": [{ taxonomy: "nav_menu", embeddable: true, href: urls.rest(`/core/v2/menus?post=${n.id}`) }],
  };
  const type = wpMenuItemType(n.type);
  if ((type === "post_type" || type === "taxonomy") && n.linkedObject) {
    links["wp:menu-item-object"] = [{ [type]: n.linkedObject.type, embeddable: true, href: urls.rest(`/core/v2${n.linkedObject.restPath}`) }];
  }
  if (context === "edit") {
    const can = n.viewerCan;
    if (can.publish) links["wp:action-publish"] = self;
    if (can.unfilteredHtml) links["wp:action-unfiltered-html"] = self;
    if (can.createMenus) links["wp:action-create-menus"] = self;
    if (can.assignMenus) links["wp:action-assign-menus"] = self;
  }
  links.curies = CURIES;
  return links;
}

export const MENU_ITEM_RESOURCE: Resource<MenuItemNode> = {
  title: "nav_menu_item", fields, links: menuItemLinks,
  responseOrder: [
    "id", "title", "status", "url", "attr_title", "description", "type", "type_label", "object", "object_id", "parent", "menu_order",
    "target", "classes", "xfn", "invalid", "meta", "menus",
  ],
};

/** Reading menu items needs edit_theme_options or edit_posts, everything else edit_theme_options: the graph decides. */
const canRead = allowedBy(SitePermissionsDocument, (d) => d.viewerCan?.readMenus ?? false);
const canEdit = allowedBy(SitePermissionsDocument, (d) => d.viewerCan?.editMenus ?? false);
const menuItemInput = inputOf(MENU_ITEM_RESOURCE);

export const menuItemRoutes: SiteRoute[] = [
  ...crudRoutes({
    namespace: "core/v2", path: "/menu-items", resource: MENU_ITEM_RESOURCE, batch: true,
    idArg: { description: "Unique identifier for the post.", type: "integer" },
    allow: { list: canRead, read: canRead, create: canEdit, update: canEdit, delete: canEdit, editContext: canEdit },
    // The graph lets everyone read located menus' items; REST keeps WordPress's rule.
    readGuard: { allow: canRead, code: "rest_cannot_view", message: "Sorry, you are not allowed to view menu items." },
    list: {
      args: MENU_ITEM_LIST_ARGS,
      op: op(ListMenuItemsDocument, (r) => ({
        where: listWhere(MENU_ITEM_LIST_ARGS, r.params), page: r.params.page as number, perPage: r.params.per_page as number, offset: r.params.offset ?? null,
        order: upper<"ASC" | "DESC">(r.params.order), orderBy: upper<MenuItemOrderBy>(r.params.orderby),
      }), (d) => d.menuItems!),
    },
    create: { op: op(CreateMenuItemDocument, (r) => ({ input: menuItemInput(r) }), (d) => d.createMenuItem!) },
    read: { op: op(ReadMenuItemDocument, byId, (d) => d.menuItem!) },
    update: { op: op(UpdateMenuItemDocument, (r) => ({ ...byId(r), input: menuItemInput(r) }), (d) => d.updateMenuItem!) },
    // Menu items cannot be trashed, so this is always a deletion: the item as it was, in view context, without links.
    delete: { force: "Whether to bypass Trash and force deletion.", context: "view", op: op(DeleteMenuItemDocument, removal, (d) => deletion(d.deleteMenuItem!)) },
  }),
  // The item's own update arguments, whose `parent` (the parent menu item) replaces the route's.
  ...autosaveRoutes("/menu-items", {
    resource: revisionResource("/menu-items", { autosave: true, meta: () => ({ _lang_menu_item: [] }) }),
    allowed: canEdit, parentArg: { description: "The ID for the parent of the autosave.", type: "integer" },
    writeArgs: writeArgs(MENU_ITEM_RESOURCE, "update"),
    ops: {
      // The path's {id} is not a declared argument, so it arrives as a string.
      list: op(ListMenuItemAutosavesDocument, (r) => ({ parent: Number(r.params.id) }), (d) => d.menuItemAutosaves!),
      create: op(CreateMenuItemAutosaveDocument, (r) => ({ parent: Number(r.params.id), input: menuItemInput(r) }), (d) => d.createMenuItemAutosave!),
      read: op(ReadMenuItemAutosaveDocument, revisionId, (d) => d.menuItemAutosave!),
    },
  }),
];
