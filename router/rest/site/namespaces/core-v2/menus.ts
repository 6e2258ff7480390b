// core/v2/menus: WordPress's menus controller, a terms controller for the flat nav_menu taxonomy
// without count/link/taxonomy and with locations and auto_add. Each endpoint is one typed
// operation of menus.graphql.
import {
  CreateMenuDocument, DeleteMenuDocument, ListMenusDocument, ReadMenuDocument, SitePermissionsDocument, UpdateMenuDocument,
  type MenuFieldsFragment,
} from "../../../../../generated/graphql/operations.ts";
import { phpString, sanitizeTextField } from "../../../../../lib/wordpress/php-values.ts";
import type { SiteRoute } from "../../route.ts";
import { byId, crudRoutes, deletion, inputOf, op, removal } from "../../kit/crud.ts";
import { allowedBy } from "../../kit/operation.ts";
import { CURIES, type Context, type Resource } from "../../kit/resource.ts";
import { TERM_FORCE, termFields, termIdArg, termListArgs, termListVariables } from "./terms.ts";

const VIEW_EDIT: Context[] = ["view", "edit"];

const { id, description, name, slug, meta } = termFields;

const MENU: Resource<MenuFieldsFragment> = {
  title: "nav_menu",
  fields: {
    id, description,
    // Sanitized by WordPress's own callbacks, so not validated against the schema (`5` is a fine name).
    name: { ...name, arg: { skipValidation: true, sanitize: (v) => sanitizeTextField(v) } },
    slug: { ...slug, arg: { skipValidation: true, sanitize: phpString } },
    meta,
    locations: {
      schema: { description: "The locations assigned to the menu.", type: "array", items: { type: "string" }, context: VIEW_EDIT },
      read: (m) => m.locations, input: "locations",
    },
    auto_add: { schema: { description: "Whether to automatically add top level pages to this menu.", type: "boolean", context: VIEW_EDIT }, read: (m) => m.autoAdd, input: "autoAdd" },
  },
  links: (m, { urls }) => ({
    self: [{ href: urls.rest(`/core/v2/menus/${m.id}`) }],
    collection: [{ href: urls.rest("/core/v2/menus") }],
    about: [{ href: urls.rest("/core/v2/taxonomies/nav_menu") }],
    "wp:post_type": [{ href: urls.rest(`/core/v2/menu-items?menus=${m.id}`) }],
    ...(m.locations.length ? { "wp:menu-location": m.locations.map((l) => ({ embeddable: true, href: urls.rest(`/core/v2/menu-locations/${l}`) })) } : {}),
    curies: CURIES,
  }),
};

/** Reading menus needs edit_theme_options or edit_posts, everything else edit_theme_options: the graph decides. */
const canRead = allowedBy(SitePermissionsDocument, (d) => d.viewerCan?.readMenus ?? false);
const canEdit = allowedBy(SitePermissionsDocument, (d) => d.viewerCan?.editMenus ?? false);
const menuInput = inputOf(MENU);

export const menuRoutes: SiteRoute[] = crudRoutes({
  namespace: "core/v2", path: "/menus", resource: MENU, batch: true, idArg: termIdArg,
  allow: { list: canRead, read: canRead, create: canEdit, update: canEdit, delete: canEdit, editContext: canEdit },
  // The graph lets everyone read located menus; REST keeps WordPress's rule.
  readGuard: { allow: canRead, code: "rest_cannot_view", message: "Sorry, you are not allowed to view menus." },
  editContextMessages: { list: "Sorry, you are not allowed to edit terms in this taxonomy.", item: "Sorry, you are not allowed to edit this term." },
  list: { args: termListArgs("menus", false), op: op(ListMenusDocument, termListVariables, (d) => d.menus!) },
  // Writes answer in view context, as WordPress's menus controller does.
  create: { context: "view", op: op(CreateMenuDocument, (r) => ({ input: menuInput(r) }), (d) => d.createMenu!) },
  read: { op: op(ReadMenuDocument, byId, (d) => d.menu!) },
  update: { context: "view", op: op(UpdateMenuDocument, (r) => ({ ...byId(r), input: menuInput(r) }), (d) => d.updateMenu!) },
  delete: { force: TERM_FORCE, context: "view", op: op(DeleteMenuDocument, removal, (d) => deletion(d.deleteMenu!)) },
});
