// The caller's site-wide permissions, from the same predicates the domain modules enforce: the
// router's `Allow` headers ask here instead of keeping rules of their own.
import type { Resolvers } from "../../../generated/graphql/content-resolvers.ts";
import { canUploadFiles } from "../media/attachments.ts";
import { MENU_ITEM } from "../menus/menu-items.ts";
import { canEditMenus, canReadMenus } from "../menus/menus.ts";
import { canCreate } from "../permissions.ts";
import { canManageTerms } from "../terms/terms.ts";
import { canManageApplicationPasswords } from "../users/application-passwords.ts";
import { canCreateUsers, canDeleteUser, canEditOtherUsers, canListUsers } from "../users/user-directory.ts";
import { canManageOptions } from "./site-settings.ts";

export const viewerPermissionResolvers: Resolvers = {
  Query: {
    viewerCan: (_parent, _args, { viewer }) => ({
      createPosts: canCreate(viewer, "post"),
      createPages: canCreate(viewer, "page"),
      uploadFiles: canUploadFiles(viewer),
      readMenus: canReadMenus(viewer),
      editMenus: canEditMenus(viewer) && canCreate(viewer, MENU_ITEM),
      listUsers: canListUsers(viewer),
      createUsers: canCreateUsers(viewer),
      editUsers: canEditOtherUsers(viewer),
      deleteUsers: canDeleteUser(viewer),
      manageOptions: canManageOptions(viewer),
      manageCategories: canManageTerms(viewer),
      manageTags: canManageTerms(viewer),
      manageTerms: canManageTerms(viewer),
      manageOwnApplicationPasswords: !!viewer && canManageApplicationPasswords(viewer, viewer.id),
      manageApplicationPasswords: canEditOtherUsers(viewer),
    }),
  },
};
