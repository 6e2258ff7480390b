// core/v2/types: the post types the site exposes, as WordPress's post types controller answers
// (an object keyed by type; capabilities, labels, supports and visibility in edit context only).
// Each endpoint is one typed operation of types.graphql.
import { ListPostTypesDocument, ReadPostTypeDocument, type PostTypeFieldsFragment } from "../../../../../generated/graphql/operations.ts";
import type { SiteRoute } from "../../route.ts";
import { op } from "../../kit/crud.ts";
import type { Resource } from "../../kit/resource.ts";
import { ALL, EDIT, editing, entries, field, registrationLinks, registryRoutes, VIEW_EDIT } from "./registrations.ts";

type PostTypeNode = PostTypeFieldsFragment;

export const POST_TYPE: Resource<PostTypeNode> = {
  title: "type",
  fields: {
    capabilities: { schema: field("All capabilities used by the post type.", "object", EDIT), read: (t) => entries(t.capabilities) },
    description: { schema: field("A human-readable description of the post type.", "string", VIEW_EDIT), read: (t) => t.description },
    hierarchical: { schema: field("Whether or not the post type should have children.", "boolean", VIEW_EDIT), read: (t) => t.hierarchical },
    has_archive: { schema: field("If the value is a string, the value will be used as the archive slug. If the value is false the post type has no archive.", ["string", "boolean"], VIEW_EDIT), read: (t) => t.hasArchive },
    visibility: {
      schema: field("The visibility settings for the post type.", "object", EDIT, {
        properties: {
          show_ui: { description: "Whether to generate a default UI for managing this post type.", type: "boolean" },
          show_in_nav_menus: { description: "Whether to make the post type available for selection in navigation menus.", type: "boolean" },
        },
      }),
      read: (t) => ({ show_in_nav_menus: t.visibility.showInNavMenus, show_ui: t.visibility.showUi }),
    },
    viewable: { schema: field("Whether or not the post type can be viewed.", "boolean", EDIT), read: (t) => t.viewable },
    labels: { schema: field("Human-readable labels for the post type for various contexts.", "object", EDIT), read: (t) => entries(t.labels) },
    name: { schema: field("The title for the post type.", "string", ALL), read: (t) => t.name },
    slug: { schema: field("An alphanumeric identifier for the post type.", "string", ALL), read: (t) => t.slug },
    icon: { schema: field("The icon for the post type.", ["string", "null"], ALL), read: (t) => t.icon },
    supports: { schema: field("All features, supported by the post type.", "object", EDIT), read: (t) => Object.fromEntries(t.supports.map((s) => [s, true])) },
    taxonomies: { schema: field("Taxonomies associated with post type.", "array", VIEW_EDIT, { items: { type: "string" } }), read: (t) => t.taxonomies },
    rest_base: { schema: field("REST base route for the post type.", "string", ALL), read: (t) => t.restBase },
    rest_namespace: { schema: field("REST route's namespace for the post type.", "string", ALL), read: (t) => t.restNamespace },
  },
  links: registrationLinks("/types"),
};

export const typeRoutes: SiteRoute[] = registryRoutes({
  path: "/types", key: "type", keyArg: { description: "An alphanumeric identifier for the post type.", type: "string" }, resource: POST_TYPE,
  list: op(ListPostTypesDocument, (r) => ({ editing: editing(r) }), (d) => d.postTypes!),
  read: op(ReadPostTypeDocument, (r) => ({ name: String(r.params.type), editing: editing(r) }), (d) => d.postType!),
});
