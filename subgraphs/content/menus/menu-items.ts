// Menu items (core/v2/menu-items): posts of type nav_menu_item. What an item links to lives in its
// meta (WordPress's _menu_item_* keys and formats) and its menu is a nav_menu term. Items are
// validated like WP_REST_Menu_Items_Controller::prepare_item_for_database, saved like
// wp_update_nav_menu_item and presented like wp_setup_nav_menu_item (title and url taken from
// the object an item points to).
import type { Post } from "../../../generated/prisma/client.ts";
import type { ErrorCode } from "../../../lib/error-codes.ts";
import { fail } from "../../../lib/errors.ts";
import { listWindow } from "../../../lib/wordpress/list-window.ts";
import { MENU_ITEM_TARGETS, MENU_ITEM_TYPES } from "../../../lib/wordpress/menu-values.ts";
// WordPress's sanitizers, shared with the REST layer (which applies them to arguments first).
import { sanitizeHtmlClass, sanitizeKey } from "../../../lib/wordpress/sanitize-names.ts";
import { sanitizeTextField, sanitizeUrl } from "../../../lib/wordpress/php-values.ts";
import type { ContentContext } from "../context.ts";
import { canEditMenus, canReadMenuItem, canReadMenus, locatedMenuIds, menuAtLocation, NAV_MENU, requireMenuReadAccess } from "./menus.ts";
import { canCreate, canDeletePost, canEditPost, hasCap, refuse } from "../permissions.ts";
import { postPermalink, termLink } from "../posts/permalinks.ts";
import { checkStatuses } from "../posts/post-query.ts";
import { POST_TYPE_REGISTRY } from "../site/post-type-registry.ts";
import { listPosts, readPost, requirePost, type ListArgs, type PostPage } from "../posts/posts.ts";
import { SETTABLE_STATUSES } from "../../../lib/wordpress/post-values.ts";
import { sanitizeTitle } from "../posts/rendering.ts";
import { createAutosave, listAutosaves, readAutosave, type AutosaveOutcome } from "../posts/revisions.ts";
import { wholeSeconds } from "../site/site.ts";
import { TAXONOMY_REGISTRY } from "../site/taxonomy-registry.ts";

export const MENU_ITEM = "nav_menu_item";

/** An item's meta as WordPress stores it (ids as strings, classes as a list, xfn as one string). */
interface MenuItemMeta {
  _menu_item_type?: string;
  _menu_item_menu_item_parent?: string;
  _menu_item_object_id?: string;
  _menu_item_object?: string;
  _menu_item_target?: string;
  _menu_item_classes?: string[];
  _menu_item_xfn?: string;
  _menu_item_url?: string;
  /** Set (to the time) while the item belongs to no menu. */
  _menu_item_orphaned?: string;
  /** Language switcher settings (seed 000 §2.4). */
  _lang_menu_item?: Record<string, boolean>;
}

/** A menu item as presented: the stored row plus what wp_setup_nav_menu_item derives from it. */
export interface MenuItemView {
  row: Post;
  title: string;
  url: string;
  type: string;
  typeLabel: string;
  object: string;
  objectId: number;
  parent: number;
  target: string;
  classes: string[];
  xfn: string[];
  attrTitle: string;
  description: string;
  invalid: boolean;
  flags: Record<string, boolean>;
  /** The menu the item is in; null for an orphan. */
  menuId: number | null;
  /** The object pointed to, as the wp:menu-item-object link names it. */
  linkedObject: { type: string; restPath: string } | null;
}

// ---- what the site knows about types and taxonomies ----

const registeredType = (slug: string) => POST_TYPE_REGISTRY.find((t) => t.slug === slug);
const registeredTaxonomy = (slug: string) => TAXONOMY_REGISTRY.find((t) => t.slug === slug);
const labelOf = (labels: [string, string | null][], key: string) => labels.find(([k]) => k === key)?.[1] ?? "";

/** get_post_type_archive_link: the posts page for `post` (the home page by default); types without an archive have none. */
async function archiveLink(ctx: ContentContext, type: string): Promise<string> {
  if (type !== "post") return "";
  const { home, options } = await ctx.site();
  const postsPage = options.show_on_front === "page" && options.page_for_posts ? await ctx.loaders.post.load(options.page_for_posts) : null;
  return postsPage ? postPermalink(ctx, postsPage) : `${home}/`;
}

/** wp_trim_words(…, 200), as menu item descriptions are shown. */
function trimWords(text: string, count = 200): string {
  const words = text.replace(/<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi, "").replace(/<[^>]*>/g, "").split(/[\n\r\t ]+/).filter(Boolean);
  return words.length > count ? `${words.slice(0, count).join(" ")}&hellip;` : words.join(" ");
}

const metaOf = (row: Post) => (row.meta ?? {}) as MenuItemMeta;
const toInt = (value: string | undefined) => Number.parseInt(value ?? "0", 10) || 0;

// ---- presentation ----

/** wp_setup_nav_menu_item: an item's title, url, labels and validity from the object it points to. */
export async function setupMenuItem(ctx: ContentContext, row: Post): Promise<MenuItemView> {
  const meta = metaOf(row);
  const type = meta._menu_item_type ?? "";
  const object = meta._menu_item_object ?? "";
  const objectId = toInt(meta._menu_item_object_id);
  let title = row.title;
  let url = "";
  let typeLabel = "Custom Link";
  let invalid = false;
  let linkedObject: MenuItemView["linkedObject"] = null;
  const withOwnTitle = (original: string) => (row.title === "" ? original || `#${objectId} (no title)` : row.title);

  if (type === "post_type") {
    const registration = registeredType(object);
    typeLabel = registration ? labelOf(registration.labels, "singular_name") : object;
    invalid = !registration;
    const target = objectId > 0 ? await ctx.loaders.post.load(objectId) : null;
    if (target) {
      url = await postPermalink(ctx, target);
      if (target.status === "trash") invalid = true;
      const base = registeredType(target.type)?.restBase;
      if (base) linkedObject = { type: target.type, restPath: `/${base}/${target.id}` };
    } else {
      invalid = true;
    }
    title = withOwnTitle(target?.title ?? "");
  } else if (type === "taxonomy") {
    const registration = registeredTaxonomy(object);
    typeLabel = registration ? labelOf(registration.labels, "singular_name") : object;
    invalid = !registration;
    const term = objectId > 0 ? await ctx.loaders.term.load(objectId) : null;
    if (term && term.taxonomy === object) url = await termLink(ctx, term);
    else invalid = true;
    // The link names the term by id alone, whatever taxonomy the item claims.
    const base = term ? registeredTaxonomy(term.taxonomy)?.restBase : undefined;
    if (term && base) linkedObject = { type: term.taxonomy, restPath: `/${base}/${term.id}` };
    title = withOwnTitle(term && term.taxonomy === object ? term.name : "");
  } else if (type === "post_type_archive") {
    const registration = registeredType(object);
    typeLabel = "Post Type Archive";
    if (registration) title = row.title || labelOf(registration.labels, "archives");
    else invalid = true;
    url = await archiveLink(ctx, object);
  } else {
    url = meta._menu_item_url ?? "";
  }

  return {
    row, title, url, type, typeLabel, object, objectId, invalid, linkedObject,
    parent: toInt(meta._menu_item_menu_item_parent),
    target: meta._menu_item_target ?? "",
    classes: meta._menu_item_classes ?? [""],
    xfn: (meta._menu_item_xfn ?? "").split(" ").map(sanitizeHtmlClass),
    attrTitle: row.excerpt,
    description: trimWords(row.content),
    flags: meta._lang_menu_item ?? {},
    menuId: (await ctx.loaders.postTerms.load(row.id)).nav_menu[0] ?? null,
  };
}

/** What the caller may do with menu items: every capability is edit_theme_options. */
export function menuItemPermissions(ctx: ContentContext, row: Post) {
  const v = ctx.viewer;
  return {
    edit: canEditPost(v, row),
    delete: canDeletePost(v, row),
    publish: canEditMenus(v),
    unfilteredHtml: hasCap(v, "unfiltered_html"),
    createMenus: canEditMenus(v),
    assignMenus: canEditMenus(v),
  };
}

// ---- reading ----

/** Lists menu items like any post type, once the caller may read menus at all. */
/**
 * Lists menu items like any post type. Over GraphQL everyone may read the published items of the
 * menus assigned to a location (`where.location` narrows to one); the rest needs menu access.
 */
export async function listMenuItems(ctx: ContentContext, args: ListArgs & { where?: (ListArgs["where"] & { location?: string | null }) | null }): Promise<PostPage> {
  // Arguments are checked before permission, as WordPress validates them first (listPosts reads the same window).
  const window = listWindow("menuItems", args);
  // WordPress refuses a forbidden status while sanitizing, before its permission check.
  checkStatuses(args.where?.status ?? ["publish"], MENU_ITEM, ctx.viewer, ["publish"]);
  const { location, ...where } = args.where ?? {};
  let allowed: number[] | null = null;
  if (location !== undefined && location !== null) {
    const id = await menuAtLocation(ctx, location);
    allowed = id ? [id] : [];
  }
  if (!canReadMenus(ctx.viewer)) {
    const located = await locatedMenuIds(ctx);
    allowed = allowed ? allowed.filter((id) => located.includes(id)) : located;
  }
  if (allowed === null) return listPosts(ctx, MENU_ITEM, { ...args, where });
  const asked = where.menus?.terms;
  const terms = asked?.length ? asked.filter((id) => allowed.includes(id)) : allowed;
  if (!terms.length) return { nodes: [], totalCount: 0, totalPages: 0, start: window.start, perPage: window.perPage! };
  return listPosts(ctx, MENU_ITEM, { ...args, where: { ...where, menus: { ...where.menus, terms, operator: "OR" } } });
}

/** A menu item by id: public when it is published in a located menu; otherwise as WordPress. */
export async function readMenuItem(ctx: ContentContext, id: number): Promise<Post> {
  const row = await readPost(ctx, MENU_ITEM, id);
  if (!(await canReadMenuItem(ctx, row))) requireMenuReadAccess(ctx, "menu items");
  return row;
}

// ---- writing ----

export interface MenuItemInput {
  title?: string | null;
  type?: string | null;
  status?: string | null;
  parent?: number | null;
  attrTitle?: string | null;
  classes?: string[] | null;
  description?: string | null;
  menuOrder?: number | null;
  object?: string | null;
  objectId?: number | null;
  target?: string | null;
  url?: string | null;
  xfn?: string[] | null;
  menus?: number | null;
  meta?: { langMenuItem?: { name: string; value: boolean }[] | null } | null;
}

/** rest_invalid_param for one field, as the REST layer would have reported it. */
function invalidParam(param: string, code: ErrorCode, message: string): never {
  return fail("rest_invalid_param", { message: `Invalid parameter(s): ${param}`, data: { params: { [param]: message }, details: { [param]: { code, message, data: null } } } });
}

const enumList = (values: string[]) => (values.length === 2 ? `${values[0]} and ${values[1]}` : `${values.slice(0, -1).join(", ")}, and ${values.at(-1)}`);

/** The argument rules of the REST schema, for callers that come through GraphQL. */
function checkInput(input: MenuItemInput): void {
  const oneOf = (value: string | null | undefined, allowed: string[], param: string) => {
    if (value !== undefined && value !== null && !allowed.includes(value)) invalidParam(param, "rest_not_in_enum", `${param} is not one of ${enumList(allowed)}.`);
  };
  const atLeast = (value: number | null | undefined, minimum: number, param: string) => {
    if (value !== undefined && value !== null && value < minimum) invalidParam(param, "rest_out_of_bounds", `${param} must be greater than or equal to ${minimum}`);
  };
  oneOf(input.type, MENU_ITEM_TYPES, "type");
  oneOf(input.status, SETTABLE_STATUSES, "status");
  atLeast(input.parent, 0, "parent");
  atLeast(input.menuOrder, 1, "menu_order");
  atLeast(input.objectId, 0, "object_id");
  oneOf(input.target, MENU_ITEM_TARGETS, "target");
  if (input.url && sanitizeUrl(input.url) === "") invalidParam("url", "rest_invalid_url", "Invalid URL.");
}

/** The item as wp_update_nav_menu_item receives it. */
interface PreparedItem {
  menuId: number;
  objectId: number;
  object: string;
  parent: number;
  position: number;
  type: string;
  title: string;
  url: string;
  description: string;
  attrTitle: string;
  target: string;
  classes: string[];
  xfn: string[];
  status: string;
}

/**
 * prepare_item_for_database: the current values (or the create defaults), overridden by what was
 * sent, then the semantic checks, all reported together (the first error, the rest as additional).
 */
async function prepareMenuItem(ctx: ContentContext, input: MenuItemInput, existing: Post | null): Promise<PreparedItem> {
  const current = existing ? await setupMenuItem(ctx, existing) : null;
  const item: PreparedItem = current
    ? {
      menuId: current.menuId ?? 0, objectId: current.objectId, object: current.object, parent: current.parent,
      // A stored position of 0 is corrected to 1 (WordPress ticket 28140).
      position: existing!.menuOrder === 0 ? 1 : existing!.menuOrder, type: current.type, title: current.title, url: current.url,
      description: current.description, attrTitle: current.attrTitle, target: current.target, classes: current.classes,
      xfn: current.xfn, status: existing!.status,
    }
    : {
      menuId: 0, objectId: 0, object: "", parent: 0, position: 1, type: "custom", title: "", url: "", description: "",
      attrTitle: "", target: "", classes: [], xfn: [], status: "publish",
    };
  // What was sent replaces the current value, cleaned as the REST layer cleans it (GraphQL callers skip that layer).
  const set = <K extends keyof PreparedItem>(key: K, value: PreparedItem[K] | null | undefined, clean: (v: PreparedItem[K]) => PreparedItem[K] = (v) => v) => {
    if (value !== undefined && value !== null) item[key] = clean(value);
  };
  set("objectId", input.objectId);
  set("object", input.object, sanitizeKey);
  set("parent", input.parent);
  set("position", input.menuOrder);
  set("type", input.type);
  set("url", input.url, sanitizeUrl);
  set("description", input.description, sanitizeTextField);
  set("attrTitle", input.attrTitle, sanitizeTextField);
  set("target", input.target);
  set("classes", input.classes, (list) => list.map(sanitizeHtmlClass));
  set("xfn", input.xfn, (list) => list.map(sanitizeHtmlClass));
  set("status", input.status);
  set("title", input.title);
  if (input.menus) item.menuId = Math.abs(input.menus);

  const errors: { code: ErrorCode; message: string }[] = [];
  if (!item.object) {
    if (item.type === "taxonomy") {
      const term = item.objectId > 0 ? await ctx.loaders.term.load(item.objectId) : null;
      if (term) item.object = term.taxonomy;
      else errors.push({ code: "rest_term_invalid_id", message: "Invalid term ID." });
    } else if (item.type === "post_type") {
      const post = item.objectId > 0 ? await ctx.loaders.post.load(item.objectId) : null;
      if (post) item.object = post.type;
      else errors.push({ code: "rest_post_invalid_id", message: "Invalid post ID." });
    }
  }
  if (item.type === "post_type_archive" && !registeredType(item.object)) errors.push({ code: "rest_post_invalid_type", message: "Invalid post type." });
  if (item.type === "custom") {
    if (item.title === "") errors.push({ code: "rest_title_required", message: "The title is required when using a custom menu item type." });
    if (item.url === "") errors.push({ code: "rest_url_required", message: "The url is required when using a custom menu item type." });
  }
  if (errors.length) {
    const [first, ...rest] = errors;
    fail(first.code, { message: first.message, status: 400, additional: rest.map((e) => ({ ...e, status: 400 })) });
  }
  // Only draft and publish are menu item statuses.
  if (item.status !== "publish") item.status = "draft";
  return item;
}

/** The object's own title and its parent: a title equal to the object's is stored empty, so it follows renames. */
async function originalObject(ctx: ContentContext, item: PreparedItem): Promise<{ title: string; parent: number }> {
  if (item.type === "taxonomy") {
    const term = await ctx.loaders.term.load(item.objectId);
    return term && term.taxonomy === item.object ? { title: term.name, parent: term.parentId } : { title: "", parent: 0 };
  }
  if (item.type === "post_type") {
    const post = await ctx.loaders.post.load(item.objectId);
    return post ? { title: post.title, parent: post.parentId } : { title: "", parent: 0 };
  }
  const registration = item.type === "post_type_archive" ? registeredType(item.object) : undefined;
  return { title: registration ? labelOf(registration.labels, "archives") : "", parent: 0 };
}

/** Creates (no id) or updates a menu item, as the REST controller and wp_update_nav_menu_item do. */
export async function saveMenuItem(ctx: ContentContext, input: MenuItemInput, id?: number): Promise<Post> {
  checkInput(input);
  const existing = id === undefined ? null : await requirePost(ctx, MENU_ITEM, id);
  if (existing && !canEditPost(ctx.viewer, existing)) refuse(ctx, "rest_cannot_edit");
  if (!existing && !canCreate(ctx.viewer, MENU_ITEM)) refuse(ctx, "rest_cannot_create");
  const item = await prepareMenuItem(ctx, input, existing);

  const menu = item.menuId ? await ctx.loaders.term.load(item.menuId) : null;
  if (item.menuId !== 0 && menu?.taxonomy !== NAV_MENU) fail("invalid_menu_id");
  // An orphan always sits at position 1.
  const position = item.menuId === 0 ? 1 : item.position;
  let { title, description, url } = item;
  let postParent = existing?.parentId ?? 0;
  if (item.type === "custom") {
    url = url.trim();
  } else {
    // Items that point to an object take its url, and its title unless they have their own.
    url = "";
    const original = await originalObject(ctx, item);
    postParent = original.parent;
    if (title === original.title) title = "";
    if (title === "" && description === "") description = " ";
  }

  const { clock, home } = await ctx.site();
  const now = wholeSeconds(new Date());
  const viewer = ctx.viewer!;
  const oldMeta = existing ? metaOf(existing) : {};
  const langFlags = input.meta?.langMenuItem;
  const saved = await ctx.prisma.$transaction(async (tx) => {
    const fields = {
      status: item.status, title, content: description, excerpt: item.attrTitle, parentId: postParent, menuOrder: position,
      commentStatus: "closed", pingStatus: "closed", modified: clock.toLocal(now), modifiedGmt: now,
    };
    const row = existing
      ? await tx.post.update({ where: { id: existing.id }, data: fields })
      : await tx.post.create({ data: { ...fields, type: MENU_ITEM, authorId: viewer.id, date: clock.toLocal(now), dateGmt: item.status === "publish" ? now : null } });
    const custom = item.type === "custom";
    const meta: MenuItemMeta = {
      ...oldMeta,
      _menu_item_type: sanitizeKey(item.type),
      // An item cannot be its own parent; WordPress quietly resets that to 0.
      _menu_item_menu_item_parent: String(item.parent === row.id ? 0 : item.parent),
      _menu_item_object_id: String(custom ? row.id : item.objectId),
      _menu_item_object: sanitizeKey(custom ? "custom" : item.object),
      _menu_item_target: sanitizeKey(item.target),
      // Classes and xfn travel as one space-separated string, then are split and cleaned again.
      _menu_item_classes: item.classes.join(" ").split(" ").map(sanitizeHtmlClass),
      _menu_item_xfn: item.xfn.join(" ").split(" ").map(sanitizeHtmlClass).join(" "),
      _menu_item_url: sanitizeUrl(url),
      ...(langFlags ? { _lang_menu_item: Object.fromEntries(langFlags.map((f) => [f.name, f.value])) } : {}),
    };
    if (item.menuId === 0) meta._menu_item_orphaned = String(Math.floor(now.getTime() / 1000));
    else delete meta._menu_item_orphaned;
    // Published items get a slug from their title (or their id), as wp_insert_post names them.
    const slug = row.slug === "" && item.status === "publish" ? sanitizeTitle(title) || String(row.id) : row.slug;
    const updated = await tx.post.update({
      where: { id: row.id },
      data: { meta: meta as object, slug, ...(existing ? {} : { guid: `${home}/?p=${row.id}` }) },
    });
    if (menu) {
      await tx.postTerm.deleteMany({ where: { postId: row.id, term: { taxonomy: NAV_MENU } } });
      await tx.postTerm.create({ data: { postId: row.id, termId: menu.id } });
    }
    return updated;
  });
  ctx.loaders.post.clear(saved.id).prime(saved.id, saved);
  ctx.loaders.postTerms.clear(saved.id);
  return saved;
}

/** Menu items cannot be trashed: `force` must be true. Returns the item as it was. */
export async function deleteMenuItem(ctx: ContentContext, id: number, force: boolean): Promise<MenuItemView> {
  const row = await requirePost(ctx, MENU_ITEM, id);
  if (!canDeletePost(ctx.viewer, row)) refuse(ctx, "rest_cannot_delete");
  if (!force) fail("rest_trash_not_supported", { message: "Menu items do not support trashing. Set 'force=true' to delete." });
  const previous = await setupMenuItem(ctx, row);
  // Its autosaves go with it, as wp_delete_post deletes a post's revisions.
  await ctx.prisma.post.deleteMany({ where: { OR: [{ id }, { type: "revision", parentId: id }] } });
  ctx.loaders.post.clear(id);
  return previous;
}

// ---- autosaves ----

export const listMenuItemAutosaves = (ctx: ContentContext, parentId: number) => listAutosaves(ctx, MENU_ITEM, parentId);
export const readMenuItemAutosave = (ctx: ContentContext, parentId: number) => readAutosave(ctx, MENU_ITEM, parentId);

/**
 * WordPress's autosaves controller applied to a menu item: the item's update checks and
 * validation run, but what it hands on holds none of title, content or excerpt. So the author's
 * own draft item is only touched, and otherwise the user's one autosave holds empty fields.
 */
export async function createMenuItemAutosave(ctx: ContentContext, parentId: number, input: MenuItemInput): Promise<AutosaveOutcome> {
  checkInput(input);
  if (!parentId) fail("rest_post_invalid_id", { message: "Invalid item ID." });
  const item = await requirePost(ctx, MENU_ITEM, parentId);
  if (!canEditPost(ctx.viewer, item)) refuse(ctx, "rest_cannot_edit");
  await prepareMenuItem(ctx, input, item);
  return createAutosave(ctx, MENU_ITEM, parentId, {});
}
