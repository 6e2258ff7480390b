// The taxonomies WordPress registers with `show_in_rest` (create_initial_taxonomies, WordPress
// 6.1): category, post_tag and nav_menu, with labels and capabilities derived the way
// register_taxonomy derives them. core/v2/taxonomies and the GraphQL taxonomies query read it.
import { fail } from "../../../lib/errors.ts";
import { hasCap, refuse, type Viewer } from "../permissions.ts";
import { objectLabels } from "./post-type-registry.ts";

export interface TaxonomyRegistration {
  slug: string;
  description: string;
  hierarchical: boolean;
  /** Post types the taxonomy is registered for (object_type). */
  types: string[];
  restBase: string;
  restNamespace: string;
  showCloud: boolean;
  visibility: { public: boolean; publiclyQueryable: boolean; showAdminColumn: boolean; showInNavMenus: boolean; showInQuickEdit: boolean; showUi: boolean };
  labels: [string, string | null][];
  /** manage_terms, edit_terms, delete_terms, assign_terms. */
  capabilities: [string, string][];
}

/** [label, non-hierarchical default, hierarchical default] — get_taxonomy_labels of WordPress 6.1. */
const DEFAULT_LABELS: [string, string | null, string | null][] = [
  ["name", "Tags", "Categories"],
  ["singular_name", "Tag", "Category"],
  ["search_items", "Search Tags", "Search Categories"],
  ["popular_items", "Popular Tags", null],
  ["all_items", "All Tags", "All Categories"],
  ["parent_item", null, "Parent Category"],
  ["parent_item_colon", null, "Parent Category:"],
  ["name_field_description", "The name is how it appears on your site.", "The name is how it appears on your site."],
  ["slug_field_description",
    "The &#8220;slug&#8221; is the URL-friendly version of the name. It is usually all lowercase and contains only letters, numbers, and hyphens.",
    "The &#8220;slug&#8221; is the URL-friendly version of the name. It is usually all lowercase and contains only letters, numbers, and hyphens."],
  ["parent_field_description", null, "Assign a parent term to create a hierarchy. The term Jazz, for example, would be the parent of Bebop and Big Band."],
  ["desc_field_description", "The description is not prominent by default; however, some themes may show it.", "The description is not prominent by default; however, some themes may show it."],
  ["edit_item", "Edit Tag", "Edit Category"],
  ["view_item", "View Tag", "View Category"],
  ["update_item", "Update Tag", "Update Category"],
  ["add_new_item", "Add New Tag", "Add New Category"],
  ["new_item_name", "New Tag Name", "New Category Name"],
  ["separate_items_with_commas", "Separate tags with commas", null],
  ["add_or_remove_items", "Add or remove tags", null],
  ["choose_from_most_used", "Choose from the most used tags", null],
  ["not_found", "No tags found.", "No categories found."],
  ["no_terms", "No tags", "No categories"],
  ["filter_by_item", null, "Filter by category"],
  ["items_list_navigation", "Tags list navigation", "Categories list navigation"],
  ["items_list", "Tags list", "Categories list"],
  ["most_used", "Most Used", "Most Used"],
  ["back_to_items", "&larr; Go to Tags", "&larr; Go to Categories"],
  ["item_link", "Tag Link", "Category Link"],
  ["item_link_description", "A link to a tag.", "A link to a category."],
  ["menu_name", "Tags", "Categories"],
];

const visible = (on: boolean) => ({ public: on, publiclyQueryable: on, showAdminColumn: on, showInNavMenus: on, showInQuickEdit: on, showUi: on });

export const TAXONOMY_REGISTRY: readonly TaxonomyRegistration[] = [
  {
    slug: "category", description: "", hierarchical: true, types: ["post"], restBase: "categories", restNamespace: "wp/v2", showCloud: true,
    visibility: visible(true), labels: objectLabels(DEFAULT_LABELS, true, {}, "category"),
    capabilities: [["manage_terms", "manage_categories"], ["edit_terms", "edit_categories"], ["delete_terms", "delete_categories"], ["assign_terms", "assign_categories"]],
  },
  {
    slug: "post_tag", description: "", hierarchical: false, types: ["post"], restBase: "tags", restNamespace: "wp/v2", showCloud: true,
    visibility: visible(true), labels: objectLabels(DEFAULT_LABELS, false, {}, "post_tag"),
    capabilities: [["manage_terms", "manage_post_tags"], ["edit_terms", "edit_post_tags"], ["delete_terms", "delete_post_tags"], ["assign_terms", "assign_post_tags"]],
  },
  {
    slug: "nav_menu", description: "", hierarchical: false, types: ["nav_menu_item"], restBase: "menus", restNamespace: "wp/v2", showCloud: false,
    visibility: visible(false), labels: objectLabels(DEFAULT_LABELS, false, { name: "Navigation Menus", singular_name: "Navigation Menu" }, "nav_menu"),
    capabilities: [["manage_terms", "edit_theme_options"], ["edit_terms", "edit_theme_options"], ["delete_terms", "edit_theme_options"], ["assign_terms", "edit_theme_options"]],
  },
];

/** map_meta_cap for the term capabilities: what each needs of the role's primitive capabilities. */
const TERM_META_CAPS: Record<string, string> = {
  manage_post_tags: "manage_categories", edit_categories: "manage_categories", edit_post_tags: "manage_categories",
  delete_categories: "manage_categories", delete_post_tags: "manage_categories",
  assign_categories: "edit_posts", assign_post_tags: "edit_posts",
};

export function canTaxonomy(viewer: Viewer | null, taxonomy: TaxonomyRegistration, action: "manage_terms" | "assign_terms"): boolean {
  const cap = taxonomy.capabilities.find(([k]) => k === action)?.[1] ?? action;
  return hasCap(viewer, TERM_META_CAPS[cap] ?? cap);
}

/**
 * core/v2/taxonomies: all, or those of one post type. In edit context the viewer must be able to
 * assign terms of at least one taxonomy, and sees only those.
 */
export function listTaxonomies(viewer: Viewer | null, postType: string | null | undefined, editing: boolean): TaxonomyRegistration[] {
  if (editing && !TAXONOMY_REGISTRY.some((t) => canTaxonomy(viewer, t, "assign_terms"))) {
    refuse({ viewer }, "rest_cannot_view", "Sorry, you are not allowed to manage terms in this taxonomy.");
  }
  return TAXONOMY_REGISTRY
    .filter((t) => !postType || t.types.includes(postType))
    .filter((t) => !editing || canTaxonomy(viewer, t, "assign_terms"));
}

export function readTaxonomy(viewer: Viewer | null, slug: string, editing: boolean): TaxonomyRegistration {
  const taxonomy = TAXONOMY_REGISTRY.find((t) => t.slug === slug);
  if (!taxonomy) return fail("rest_taxonomy_invalid");
  if (editing && !canTaxonomy(viewer, taxonomy, "manage_terms")) {
    refuse({ viewer }, "rest_forbidden_context", "Sorry, you are not allowed to manage terms in this taxonomy.");
  }
  return taxonomy;
}
