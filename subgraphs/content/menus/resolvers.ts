// Resolvers of menus and menu items (menus.graphql): arguments in, domain functions
// out. Menu items resolve as MenuItemView (the row set up once, with its object); menus as terms.
import { refId } from "../../../lib/entity-ref.ts";
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
  canEditMenus, canReadMenus, deleteMenu, listMenus, menuAutoAdd, menuLocations, NAV_MENU, readMenu, saveMenu,
} from "./menus.ts";
import { canReadPost } from "../permissions.ts";
import { connection } from "../posts/posts.ts";
import { renderTitle } from "../posts/rendering.ts";

const setupAll = (ctx: ContentContext, rows: Post[]) => Promise.all(rows.map((row) => setupMenuItem(ctx, row)));

const Query: QueryResolvers = {
  menuItems: async (_, args, ctx) => {
    const page = await listMenuItems(ctx, args);
    return { ...connection(page), nodes: await setupAll(ctx, page.nodes) };
  },
  menuItem: async (_, args, ctx) => setupMenuItem(ctx, await readMenuItem(ctx, args.id)),
  menuItemAutosaves: (_, args, ctx) => listMenuItemAutosaves(ctx, args.parent),
  menuItemAutosave: (_, args, ctx) => readMenuItemAutosave(ctx, args.parent),
  menus: (_, args, ctx) => listMenus(ctx, args),
  menu: (_, args, ctx) => readMenu(ctx, args.id),
};

const Mutation: MutationResolvers = {
  createMenuItem: async (_, args, ctx) => setupMenuItem(ctx, await saveMenuItem(ctx, args.input)),
  updateMenuItem: async (_, args, ctx) => setupMenuItem(ctx, await saveMenuItem(ctx, args.input, args.id)),
  deleteMenuItem: async (_, args, ctx) => ({ deleted: true, previous: await deleteMenuItem(ctx, args.id, args.force ?? false) }),
  createMenuItemAutosave: async (_, args, ctx) => {
    const outcome = await createMenuItemAutosave(ctx, args.parent, args.input);
    return { ...outcome.item, asPost: outcome.updatedPost };
  },
  createMenu: (_, args, ctx) => saveMenu(ctx, args.input),
  updateMenu: (_, args, ctx) => saveMenu(ctx, args.input, args.id),
  deleteMenu: async (_, args, ctx) => {
    const { menu, locations, autoAdd } = await deleteMenu(ctx, args.id, args.force ?? false);
    return { deleted: true, previous: { ...menu, previous: { locations, autoAdd } } };
  },
};

const MenuItem: MenuItemResolvers = {
  __resolveReference: async (ref, ctx) => {
    const row = await ctx.loaders.post.load(refId(ref));
    return row && row.type === MENU_ITEM && canReadPost(ctx.viewer, row) && canReadMenus(ctx.viewer) ? setupMenuItem(ctx, row) : null;
  },
  id: (item) => item.row.id,
  databaseId: (item) => item.row.id,
  title: (item, _, ctx) => ({ raw: canEditMenus(ctx.viewer) ? item.title : null, rendered: renderTitle(item.title) }),
  status: (item) => item.row.status,
  menuOrder: (item) => item.row.menuOrder,
  meta: (item) => ({ langMenuItem: Object.entries(item.flags).map(([name, value]) => ({ name, value })) }),
  menu: (item, _, ctx) => (item.menuId ? ctx.loaders.term.load(item.menuId) : null),
  viewerCan: (item, _, ctx) => menuItemPermissions(ctx, item.row),
};

const Menu: MenuResolvers = {
  __resolveReference: async (ref, ctx) => {
    const term = await ctx.loaders.term.load(Number(ref.id));
    return term && term.taxonomy === NAV_MENU && canReadMenus(ctx.viewer) ? term : null;
  },
  locations: (menu, _, ctx) => menu.previous?.locations ?? menuLocations(ctx, menu.id),
  autoAdd: (menu, _, ctx) => menu.previous?.autoAdd ?? menuAutoAdd(ctx, menu.id),
  items: async (menu, _, ctx) => {
    const rows = await ctx.loaders.menuItems.load(menu.id);
    rows.forEach((row) => ctx.loaders.post.prime(row.id, row));
    return setupAll(ctx, rows);
  },
};

export const menuResolvers: Resolvers = { Query, Mutation, MenuItem, Menu };
