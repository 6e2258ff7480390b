// Resolvers of menus and menu items (menus.graphql): arguments in, domain functions
// out. Menu items resolve as MenuItemView (the row set up once, with its object); menus as terms.
import { refId } from "../../../lib/entity-ref.ts";
import { databaseIdOf, toGlobalId } from "../../../lib/global-id.ts";
import { fail } from "../../../lib/errors.ts";
import { relayList } from "../connections.ts";
import { databaseIdArg, termIdArg, type IdType } from "../nodes/nodes.ts";
import type {
  MenuItemResolvers, MenuResolvers, MutationResolvers, QueryResolvers, Resolvers,
} from "../../../generated/graphql/content-resolvers.ts";
import type { Post } from "../../../generated/prisma/client.ts";
import type { ContentContext } from "../context.ts";
import {
  createMenuItemAutosave, deleteMenuItem, listMenuItemAutosaves, listMenuItems, MENU_ITEM, menuItemPermissions,
  readMenuItem, readMenuItemAutosave, saveMenuItem, setupMenuItem,
} from "./menu-items.ts";
import {
  canEditMenus, canReadMenu, canReadMenuItem, deleteMenu, listMenus, menuAtLocation, menuAutoAdd, menuLocations, NAV_MENU, readMenu, saveMenu,
} from "./menus.ts";
import { renderTitle } from "../posts/rendering.ts";

const setupAll = (ctx: ContentContext, rows: Post[]) => Promise.all(rows.map((row) => setupMenuItem(ctx, row)));

/** A mutation's menu item id: a global id or the database id. */
const itemId = (id: string | number) => databaseIdOf(id, "post") ?? fail("rest_post_invalid_id");
/** A mutation's menu id: a global id or the database id. */
const menuId = (id: string | number) => databaseIdOf(id, "term") ?? fail("rest_term_invalid");

/** A menu lookup's database id; LOCATION names the menu assigned there. */
async function menuIdArg(ctx: ContentContext, id: string | number, idType: IdType): Promise<number> {
  if (idType !== "LOCATION") return termIdArg(ctx, NAV_MENU, id, idType, "Menu");
  return (await menuAtLocation(ctx, String(id))) ?? fail("rest_term_invalid");
}

const Query: QueryResolvers = {
  menuItems: (_, args, ctx) => relayList("menuItems", args, async (a) => {
    const page = await listMenuItems(ctx, a);
    return { ...page, nodes: await setupAll(ctx, page.nodes) };
  }) as never,
  menuItem: async (_, args, ctx) =>
    setupMenuItem(ctx, await readMenuItem(ctx, databaseIdArg(args.id, args.idType ?? "ID", "post", "rest_post_invalid_id"))),
  menuItemAutosaves: (_, args, ctx) => listMenuItemAutosaves(ctx, args.parent),
  menuItemAutosave: (_, args, ctx) => readMenuItemAutosave(ctx, args.parent),
  menus: (_, args, ctx) => relayList("menus", args, (a) => listMenus(ctx, a)),
  menu: async (_, args, ctx) => readMenu(ctx, await menuIdArg(ctx, args.id, args.idType ?? "ID")),
};

const Mutation: MutationResolvers = {
  createMenuItem: async (_, args, ctx) => setupMenuItem(ctx, await saveMenuItem(ctx, args.input)),
  updateMenuItem: async (_, args, ctx) => setupMenuItem(ctx, await saveMenuItem(ctx, args.input, itemId(args.id))),
  deleteMenuItem: async (_, args, ctx) => ({ deleted: true, previous: await deleteMenuItem(ctx, itemId(args.id), args.force ?? false) }),
  createMenuItemAutosave: async (_, args, ctx) => {
    const outcome = await createMenuItemAutosave(ctx, args.parent, args.input);
    return { ...outcome.item, asPost: outcome.updatedPost };
  },
  createMenu: (_, args, ctx) => saveMenu(ctx, args.input),
  updateMenu: (_, args, ctx) => saveMenu(ctx, args.input, menuId(args.id)),
  deleteMenu: async (_, args, ctx) => {
    const { menu, locations, autoAdd } = await deleteMenu(ctx, menuId(args.id), args.force ?? false);
    return { deleted: true, previous: { ...menu, previous: { locations, autoAdd } } };
  },
};

const MenuItem: MenuItemResolvers = {
  __resolveReference: async (ref, ctx) => {
    const row = await ctx.loaders.post.load(refId(ref));
    return row && row.type === MENU_ITEM && (await canReadMenuItem(ctx, row)) ? setupMenuItem(ctx, row) : null;
  },
  id: (item) => toGlobalId("post", item.row.id),
  databaseId: (item) => item.row.id,
  title: (item, _, ctx) => ({ raw: canEditMenus(ctx.viewer) ? item.title : null, rendered: renderTitle(item.title) }),
  status: (item) => item.row.status as never,
  type: (item) => (item.type || "custom") as never,
  menuOrder: (item) => item.row.menuOrder,
  meta: (item) => ({ langMenuItem: Object.entries(item.flags).map(([name, value]) => ({ name, value })) }),
  menu: (item, _, ctx) => (item.menuId ? ctx.loaders.term.load(item.menuId) : null),
  viewerCan: (item, _, ctx) => menuItemPermissions(ctx, item.row),
};

const Menu: MenuResolvers = {
  __resolveReference: async (ref, ctx) => {
    const term = await ctx.loaders.term.load(refId(ref, "term"));
    return term && term.taxonomy === NAV_MENU && (await canReadMenu(ctx, term.id)) ? term : null;
  },
  id: (menu) => toGlobalId("term", menu.id),
  databaseId: (menu) => menu.id,
  locations: (menu, _, ctx) => menu.previous?.locations ?? menuLocations(ctx, menu.id),
  autoAdd: (menu, _, ctx) => menu.previous?.autoAdd ?? menuAutoAdd(ctx, menu.id),
  items: async (menu, _, ctx) => {
    const rows = await ctx.loaders.menuItems.load(menu.id);
    rows.forEach((row) => ctx.loaders.post.prime(row.id, row));
    return setupAll(ctx, rows);
  },
};

export const menuResolvers: Resolvers = { Query, Mutation, MenuItem, Menu };
