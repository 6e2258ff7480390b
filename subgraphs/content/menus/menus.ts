// Navigation menus (core/v2/menus): terms of the nav_menu taxonomy, created, renamed and deleted
// the way WordPress's menus controller and wp_update_nav_menu_object do it. A menu's theme
// locations and its auto_add flag are site options, as in WordPress (the `nav_menu_locations`
// theme mod and the `nav_menu_options` option).
import type { Post, Prisma, Term } from "../../../generated/prisma/client.ts";
import { fail } from "../../../lib/errors.ts";
import { listWindow } from "../../../lib/wordpress/list-window.ts";
import { MENU_LOCATIONS } from "../../../lib/wordpress/menu-values.ts";
import type { ContentContext } from "../context.ts";
import { canReadPost, hasCap, refuse, type Viewer } from "../permissions.ts";
import { sanitizeTitle } from "../posts/rendering.ts";
import { listTerms, requireTerm, type TermListArgs } from "../terms/terms.ts";

export const NAV_MENU = "nav_menu";

/** A menu as resolved: its term, plus the settings it had when it was just deleted. */
export type MenuRow = Term & { previous?: { locations: string[]; autoAdd: boolean } };

/**
 * The theme's menu locations (register_nav_menus). The site runs no theme of its own, so it
 * registers the two locations most themes have; any other location is refused.
 */

const LOCATIONS_OPTION = "nav_menu_locations";
const MENU_OPTIONS = "nav_menu_options";

/** Who may edit menus: every nav_menu capability (and every nav_menu_item one) is edit_theme_options. */
export const canEditMenus = (viewer: Viewer | null) => hasCap(viewer, "edit_theme_options");

/**
 * Menus and menu items are not public: reading them needs edit_theme_options, or the right to edit
 * posts of some type (WordPress's check_has_read_only_access; with the stock roles, edit_posts).
 */
export const canReadMenus = (viewer: Viewer | null) => canEditMenus(viewer) || hasCap(viewer, "edit_posts");

export function requireMenuReadAccess(ctx: ContentContext, what: "menus" | "menu items"): void {
  if (!canReadMenus(ctx.viewer)) refuse(ctx, "rest_cannot_view", `Sorry, you are not allowed to view ${what}.`);
}


/** location → menu id. */
async function locationAssignments(ctx: ContentContext): Promise<Record<string, number>> {
  const value = await ctx.loaders.option.load(LOCATIONS_OPTION);
  return value && typeof value === "object" && !Array.isArray(value) ? value as Record<string, number> : {};
}

async function autoAddMenus(ctx: ContentContext): Promise<number[]> {
  const value = await ctx.loaders.option.load(MENU_OPTIONS) as { auto_add?: unknown } | null;
  return Array.isArray(value?.auto_add) ? value.auto_add.filter((id): id is number => typeof id === "number") : [];
}

/** Menus assigned to a theme location: the ones a site shows, which everyone may read over GraphQL. */
export async function locatedMenuIds(ctx: ContentContext): Promise<number[]> {
  return [...new Set(Object.values(await locationAssignments(ctx)).filter((id): id is number => typeof id === "number" && id > 0))];
}

/** The menu assigned to a theme location, if any. */
export async function menuAtLocation(ctx: ContentContext, location: string): Promise<number | null> {
  const id = (await locationAssignments(ctx))[location];
  return typeof id === "number" && id > 0 ? id : null;
}

/** Whether the caller may read a menu: located menus are public (a front end renders them), others need menu access. */
export async function canReadMenu(ctx: ContentContext, menuId: number): Promise<boolean> {
  return canReadMenus(ctx.viewer) || (await locatedMenuIds(ctx)).includes(menuId);
}

/** A menu item is readable with its menu: public when the menu is assigned to a location and the item is published. */
export async function canReadMenuItem(ctx: ContentContext, row: Post): Promise<boolean> {
  if (canReadMenus(ctx.viewer)) return canReadPost(ctx.viewer, row);
  if (row.status !== "publish") return false;
  const menuIds = (await ctx.loaders.postTerms.load(row.id)).nav_menu;
  const located = await locatedMenuIds(ctx);
  return menuIds.some((id) => located.includes(id));
}

export async function menuLocations(ctx: ContentContext, menuId: number): Promise<string[]> {
  return Object.entries(await locationAssignments(ctx)).filter(([, id]) => id === menuId).map(([location]) => location);
}

export async function menuAutoAdd(ctx: ContentContext, menuId: number): Promise<boolean> {
  return (await autoAddMenus(ctx)).includes(menuId);
}

type OptionValue = Record<string, unknown>;
const upsertOption = (tx: Prisma.TransactionClient, name: string, value: OptionValue) =>
  tx.option.upsert({ where: { name }, create: { name, value: value as Prisma.InputJsonObject }, update: { value: value as Prisma.InputJsonObject } });

/**
 * Lists menus. Over GraphQL everyone sees the menus assigned to a location (`location` narrows to
 * one); the others need menu access. REST keeps WordPress's rule by checking readMenus itself.
 */
export async function listMenus(ctx: ContentContext, args: TermListArgs & { location?: string | null }) {
  // Arguments are checked before permission, as WordPress validates them first (listTerms reads the same window).
  listWindow("menus", args);
  let allowed: number[] | null = null;
  if (args.location !== undefined && args.location !== null) {
    const id = await menuAtLocation(ctx, args.location);
    allowed = id ? [id] : [];
  }
  if (!canReadMenus(ctx.viewer)) {
    const located = await locatedMenuIds(ctx);
    allowed = allowed ? allowed.filter((id) => located.includes(id)) : located;
  }
  const { location: _location, ...termArgs } = args;
  if (allowed === null) return listTerms(ctx, NAV_MENU, termArgs);
  const include = termArgs.where?.include?.length ? termArgs.where.include.filter((id) => allowed.includes(id)) : allowed;
  if (!include.length) return { nodes: [], totalCount: 0, totalPages: 0 };
  return listTerms(ctx, NAV_MENU, { ...termArgs, where: { ...termArgs.where, include } });
}

/** A menu by id: everyone may read a menu assigned to a location, the others need menu access. */
export async function readMenu(ctx: ContentContext, id: number): Promise<Term> {
  const menu = await requireTerm(ctx, NAV_MENU, id);
  if (!(await canReadMenu(ctx, menu.id))) requireMenuReadAccess(ctx, "menus");
  return menu;
}

export interface MenuInput {
  name?: string | null;
  /** Ignored, as wp_update_nav_menu_object ignores it: the slug always follows the name. */
  slug?: string | null;
  description?: string | null;
  locations?: string[] | null;
  autoAdd?: boolean | null;
}

function checkLocations(locations: string[] | null | undefined): void {
  for (const location of locations ?? []) {
    // `param`: WordPress refuses it while validating arguments (rest_invalid_param for locations).
    if (!Object.hasOwn(MENU_LOCATIONS, location)) fail("rest_invalid_menu_location", { data: { param: "locations", location } });
  }
}

const escHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#039;");

/** wp_unique_term_slug for a flat taxonomy: "main-menu", "main-menu-2", … */
async function uniqueMenuSlug(ctx: ContentContext, name: string, exceptId: number): Promise<string> {
  const base = sanitizeTitle(name) || "menu";
  const taken = new Set((await ctx.prisma.term.findMany({
    where: { taxonomy: NAV_MENU, slug: { startsWith: base }, id: { not: exceptId } }, select: { slug: true },
  })).map((t) => t.slug));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/**
 * Creates or updates a menu as wp_update_nav_menu_object does: one menu per name, the slug derived
 * from the name, and on update a description that is not sent is cleared. Then locations and auto_add.
 */
export async function saveMenu(ctx: ContentContext, input: MenuInput, id?: number): Promise<Term> {
  // Argument checks first, as WordPress validates arguments before asking for permission.
  if (id === undefined && (input.name === undefined || input.name === null)) {
    fail("rest_missing_callback_param", { message: "Missing parameter(s): name", data: { params: ["name"] } });
  }
  checkLocations(input.locations);
  const existing = id === undefined ? null : await requireTerm(ctx, NAV_MENU, id);
  if (!canEditMenus(ctx.viewer)) {
    if (existing) refuse(ctx, "rest_cannot_update");
    refuse(ctx, "rest_cannot_create", "Sorry, you are not allowed to create terms in this taxonomy.");
  }
  const name = (input.name ?? existing!.name).trim();
  const clash = await ctx.prisma.term.findFirst({ where: { taxonomy: NAV_MENU, name: { equals: name, mode: "insensitive" }, NOT: existing ? { id: existing.id } : undefined } });
  if (clash) {
    fail("menu_exists", { message: `The menu name <strong>${escHtml(name)}</strong> conflicts with another menu name. Please try another.`, data: { term_id: clash.id } });
  }
  if (name === "") fail("empty_term_name");
  const data = { name, slug: await uniqueMenuSlug(ctx, name, existing?.id ?? 0), description: input.description ?? "" };
  const [assignments, autoAdd] = [await locationAssignments(ctx), await autoAddMenus(ctx)];
  const options: [string, OptionValue][] = [];
  const saved = await ctx.prisma.$transaction(async (tx) => {
    const term = existing
      ? await tx.term.update({ where: { id: existing.id }, data })
      : await tx.term.create({ data: { ...data, taxonomy: NAV_MENU } });
    if (input.locations) {
      // A location holds one menu: this menu's old locations are dropped, the new ones taken over.
      const kept = Object.entries(assignments).filter(([, menuId]) => menuId !== term.id);
      options.push([LOCATIONS_OPTION, Object.fromEntries([...kept, ...input.locations.map((l) => [l, term.id])])]);
    }
    if (input.autoAdd !== undefined && input.autoAdd !== null) {
      const others = autoAdd.filter((menuId) => menuId !== term.id);
      options.push([MENU_OPTIONS, { auto_add: input.autoAdd ? [...others, term.id] : others }]);
    }
    for (const [option, value] of options) await upsertOption(tx, option, value);
    return term;
  });
  ctx.loaders.term.clear(saved.id).prime(saved.id, saved);
  for (const [option, value] of options) ctx.loaders.option.clear(option).prime(option, value as Prisma.JsonObject);
  return saved;
}

export interface DeletedMenu { menu: Term; locations: string[]; autoAdd: boolean }

/** Deletes a menu, its items (and their autosaves) and its location assignments; `force` must be true. */
export async function deleteMenu(ctx: ContentContext, id: number, force: boolean): Promise<DeletedMenu> {
  const menu = await requireTerm(ctx, NAV_MENU, id);
  if (!canEditMenus(ctx.viewer)) refuse(ctx, "rest_cannot_delete", "Sorry, you are not allowed to delete this term.");
  if (!force) fail("rest_trash_not_supported", { message: "Menus do not support trashing. Set 'force=true' to delete." });
  const previous = { menu, locations: await menuLocations(ctx, id), autoAdd: await menuAutoAdd(ctx, id) };
  const itemIds = (await ctx.prisma.postTerm.findMany({ where: { termId: id, post: { type: "nav_menu_item" } }, select: { postId: true } })).map((r) => r.postId);
  // Its locations are kept, pointing at no menu (0), as wp_delete_nav_menu leaves them.
  const assignments = Object.fromEntries(Object.entries(await locationAssignments(ctx)).map(([l, menuId]) => [l, menuId === id ? 0 : menuId]));
  await ctx.prisma.$transaction([
    ctx.prisma.post.deleteMany({ where: { OR: [{ id: { in: itemIds } }, { type: "revision", parentId: { in: itemIds } }] } }),
    ctx.prisma.term.delete({ where: { id } }),
    ...(previous.locations.length ? [upsertOption(ctx.prisma, LOCATIONS_OPTION, assignments)] : []),
  ]);
  ctx.loaders.term.clear(id);
  ctx.loaders.option.clear(LOCATIONS_OPTION);
  itemIds.forEach((itemId) => ctx.loaders.post.clear(itemId));
  return previous;
}
