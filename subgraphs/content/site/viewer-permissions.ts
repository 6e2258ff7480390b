// The caller's site-wide permissions, from the same checks the domain modules enforce: the
// router's `Allow` headers ask here instead of keeping rules of their own.
import type { Resolvers } from "../../../generated/graphql/content-resolvers.ts";
import { canCreate, hasCap } from "../permissions.ts";
import { canEditMenus, canReadMenus } from "../menus/menus.ts";
import { canDeleteUser, canListUsers } from "../users/user-directory.ts";
import { MENU_ITEM } from "../menus/menu-items.ts";

export const viewerPermissionResolvers: Resolvers = {
  Query: {
    viewerCan: (_parent, _args, { viewer }) => ({
      createPosts: canCreate(viewer, "post"),
      createPages: canCreate(viewer, "page"),
      uploadFiles: hasCap(viewer, "upload_files"),
      readMenus: canReadMenus(viewer),
      editMenus: canEditMenus(viewer) && canCreate(viewer, MENU_ITEM),
      listUsers: canListUsers(viewer),
      createUsers: hasCap(viewer, "create_users"),
      editUsers: hasCap(viewer, "edit_users"),
      deleteUsers: canDeleteUser(viewer),
      manageOptions: hasCap(viewer, "manage_options"),
      manageTerms: hasCap(viewer, "manage_categories"),
    }),
  },
};
