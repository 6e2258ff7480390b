// core/v2/taxonomies: the taxonomies the site exposes (category, post_tag, nav_menu), keyed by
// taxonomy, optionally only those of one post type, as WordPress's taxonomies controller answers.
// Each endpoint is one typed operation of taxonomies.graphql.
import { ListTaxonomiesDocument, ReadTaxonomyDocument, type TaxonomyFieldsFragment } from "../../../../../generated/graphql/operations.ts";
import type { ArgSchema, SiteRoute } from "../../route.ts";
import { str } from "../../kit/args.ts";
import { op } from "../../kit/crud.ts";
import type { Resource } from "../../kit/resource.ts";
import { ALL, EDIT, editing, entries, field, registrationLinks, registryRoutes, VIEW_EDIT } from "./registrations.ts";

const flag = (description: string): ArgSchema => ({ description, type: "boolean" });

export const TAXONOMY: Resource<TaxonomyFieldsFragment> = {
  title: "taxonomy",
  fields: {
    name: { schema: field("The title for the taxonomy.", "string", ALL), read: (t) => t.name },
    slug: { schema: field("An alphanumeric identifier for the taxonomy.", "string", ALL), read: (t) => t.slug },
    capabilities: { schema: field("All capabilities used by the taxonomy.", "object", EDIT), read: (t) => entries(t.capabilities) },
    description: { schema: field("A human-readable description of the taxonomy.", "string", VIEW_EDIT), read: (t) => t.description },
    labels: { schema: field("Human-readable labels for the taxonomy for various contexts.", "object", EDIT), read: (t) => entries(t.labels) },
    types: { schema: field("Types associated with the taxonomy.", "array", VIEW_EDIT, { items: { type: "string" } }), read: (t) => t.types },
    show_cloud: { schema: field("Whether or not the term cloud should be displayed.", "boolean", EDIT), read: (t) => t.showCloud },
    hierarchical: { schema: field("Whether or not the taxonomy should have children.", "boolean", VIEW_EDIT), read: (t) => t.hierarchical },
    rest_base: { schema: field("REST base route for the taxonomy.", "string", ALL), read: (t) => t.restBase },
    rest_namespace: { schema: field("REST namespace route for the taxonomy.", "string", ALL), read: (t) => t.restNamespace },
    visibility: {
      schema: field("The visibility settings for the taxonomy.", "object", EDIT, {
        properties: {
          public: flag("Whether a taxonomy is intended for use publicly either via the admin interface or by front-end users."),
          publicly_queryable: flag("Whether the taxonomy is publicly queryable."),
          show_ui: flag("Whether to generate a default UI for managing this taxonomy."),
          show_admin_column: flag("Whether to allow automatic creation of taxonomy columns on associated post-types table."),
          show_in_nav_menus: flag("Whether to make the taxonomy available for selection in navigation menus."),
          show_in_quick_edit: flag("Whether to show the taxonomy in the quick/bulk edit panel."),
        },
      }),
      read: ({ visibility: v }) => ({
        public: v.public, publicly_queryable: v.publiclyQueryable, show_admin_column: v.showAdminColumn,
        show_in_nav_menus: v.showInNavMenus, show_in_quick_edit: v.showInQuickEdit, show_ui: v.showUi,
      }),
    },
  },
  links: registrationLinks("/taxonomies"),
};

export const taxonomyRoutes: SiteRoute[] = registryRoutes({
  path: "/taxonomies", key: "taxonomy", keyArg: { description: "An alphanumeric identifier for the taxonomy.", type: "string" }, resource: TAXONOMY,
  listArgs: { type: { description: "Limit results to taxonomies associated with a specific post type.", type: "string" } },
  list: op(ListTaxonomiesDocument, (r) => ({ postType: str(r.params.type) ?? null, editing: editing(r) }), (d) => d.taxonomies!),
  read: op(ReadTaxonomyDocument, (r) => ({ name: String(r.params.taxonomy), editing: editing(r) }), (d) => d.taxonomy!),
});
