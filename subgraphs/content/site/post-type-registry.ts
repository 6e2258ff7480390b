// The post types WordPress registers with `show_in_rest` (create_initial_post_types, as of the
// recorded WordPress 6.1.9), described the way register_post_type derives them: labels from the
// (non-)hierarchical defaults, capabilities from the capability type, supports as features.
// core/v2/types and the GraphQL postTypes query read this table; nothing here is stored.
import { fail } from "../../../lib/errors.ts";
import { REST_POST_TYPES } from "../../../lib/wordpress/post-values.ts";
import { hasCap, refuse, type Viewer } from "../permissions.ts";

export interface PostTypeRegistration {
  slug: string;
  description: string;
  hierarchical: boolean;
  hasArchive: boolean;
  /** `public` and `publicly_queryable` decide is_post_type_viewable. */
  public: boolean;
  publiclyQueryable: boolean;
  showUi: boolean;
  showInNavMenus: boolean;
  icon: string | null;
  taxonomies: string[];
  restBase: string;
  restNamespace: string;
  supports: string[];
  /** Labels, in WordPress's order: defaults first, then name_admin_bar. */
  labels: [string, string | null][];
  /** The `cap` object: meta and primitive capabilities by role in the type. */
  capabilities: [string, string][];
}

/** [label, non-hierarchical default, hierarchical default] — get_post_type_labels of WordPress 6.1. */
const DEFAULT_LABELS: [string, string | null, string | null][] = [
  ["name", "Posts", "Pages"],
  ["singular_name", "Post", "Page"],
  ["add_new", "Add New", "Add New"],
  ["add_new_item", "Add New Post", "Add New Page"],
  ["edit_item", "Edit Post", "Edit Page"],
  ["new_item", "New Post", "New Page"],
  ["view_item", "View Post", "View Page"],
  ["view_items", "View Posts", "View Pages"],
  ["search_items", "Search Posts", "Search Pages"],
  ["not_found", "No posts found.", "No pages found."],
  ["not_found_in_trash", "No posts found in Trash.", "No pages found in Trash."],
  ["parent_item_colon", null, "Parent Page:"],
  ["all_items", "All Posts", "All Pages"],
  ["archives", "Post Archives", "Page Archives"],
  ["attributes", "Post Attributes", "Page Attributes"],
  ["insert_into_item", "Insert into post", "Insert into page"],
  ["uploaded_to_this_item", "Uploaded to this post", "Uploaded to this page"],
  ["featured_image", "Featured image", "Featured image"],
  ["set_featured_image", "Set featured image", "Set featured image"],
  ["remove_featured_image", "Remove featured image", "Remove featured image"],
  ["use_featured_image", "Use as featured image", "Use as featured image"],
  ["filter_items_list", "Filter posts list", "Filter pages list"],
  ["filter_by_date", "Filter by date", "Filter by date"],
  ["items_list_navigation", "Posts list navigation", "Pages list navigation"],
  ["items_list", "Posts list", "Pages list"],
  ["item_published", "Post published.", "Page published."],
  ["item_published_privately", "Post published privately.", "Page published privately."],
  ["item_reverted_to_draft", "Post reverted to draft.", "Page reverted to draft."],
  ["item_scheduled", "Post scheduled.", "Page scheduled."],
  ["item_updated", "Post updated.", "Page updated."],
  ["item_link", "Post Link", "Page Link"],
  ["item_link_description", "A link to a post.", "A link to a page."],
  ["menu_name", "Posts", "Pages"],
];

/**
 * _get_custom_object_labels: the registered labels fill in singular_name, name_admin_bar,
 * menu_name, all_items and archives from each other, then override the defaults; keys the
 * defaults lack (name_admin_bar) follow them.
 */
export function objectLabels(
  defaults: [string, string | null, string | null][], hierarchical: boolean, custom: Record<string, string>, slug: string,
): [string, string | null][] {
  const own: Record<string, string> = { ...custom };
  if (own.singular_name === undefined && own.name !== undefined) own.singular_name = own.name;
  if (own.name_admin_bar === undefined) own.name_admin_bar = own.singular_name ?? slug;
  if (own.menu_name === undefined && own.name !== undefined) own.menu_name = own.name;
  if (own.all_items === undefined && own.menu_name !== undefined) own.all_items = own.menu_name;
  if (own.archives === undefined && own.all_items !== undefined) own.archives = own.all_items;
  const labels = new Map<string, string | null>(defaults.map(([key, flat, tree]) => [key, hierarchical ? tree : flat]));
  for (const [key, value] of Object.entries(own)) labels.set(key, value);
  return [...labels];
}

const META = ["edit_post", "read_post", "delete_post"] as const;
const PRIMITIVE = ["edit_posts", "edit_others_posts", "delete_posts", "publish_posts", "read_private_posts"] as const;
const MAPPED = ["read", "delete_private_posts", "delete_published_posts", "delete_others_posts", "edit_private_posts", "edit_published_posts"] as const;

/** get_post_type_capabilities with map_meta_cap on: names from the capability type, then explicit ones, then create_posts. */
export function typeCapabilities(singular: string, plural: string, explicit: Record<string, string> = {}): [string, string][] {
  const caps = new Map<string, string>();
  for (const meta of META) caps.set(meta, meta.replace("post", singular));
  for (const cap of [...PRIMITIVE, ...MAPPED]) caps.set(cap, cap === "read" ? "read" : cap.replace("posts", plural));
  for (const [key, value] of Object.entries(explicit)) caps.set(key, value);
  if (!caps.has("create_posts")) caps.set("create_posts", caps.get("edit_posts")!);
  return [...caps];
}

const theme = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, "edit_theme_options"]));
const TEMPLATE_CAPS = theme(["create_posts", "delete_posts", "delete_others_posts", "delete_private_posts", "delete_published_posts",
  "edit_posts", "edit_others_posts", "edit_private_posts", "edit_published_posts", "publish_posts", "read", "read_private_posts"]);

interface Definition {
  slug: string;
  hierarchical?: boolean;
  public?: boolean;
  publiclyQueryable?: boolean;
  showUi?: boolean;
  showInNavMenus?: boolean;
  description?: string;
  icon?: string;
  taxonomies?: string[];
  restBase: string;
  supports: string[];
  labels?: Record<string, string>;
  capabilities: [string, string][];
}

function register(d: Definition): PostTypeRegistration {
  const isPublic = d.public ?? false;
  const hierarchical = d.hierarchical ?? false;
  const supports = [...d.supports];
  // An editor implies autosaves, as register_post_type adds them.
  if (supports.includes("editor") && !supports.includes("autosave")) supports.push("autosave");
  return {
    slug: d.slug, description: d.description ?? "", hierarchical, hasArchive: false,
    public: isPublic, publiclyQueryable: d.publiclyQueryable ?? isPublic,
    showUi: d.showUi ?? isPublic, showInNavMenus: d.showInNavMenus ?? isPublic,
    icon: d.icon ?? null, taxonomies: d.taxonomies ?? [], restBase: d.restBase, restNamespace: "wp/v2",
    supports, labels: objectLabels(DEFAULT_LABELS, hierarchical, d.labels ?? {}, d.slug), capabilities: d.capabilities,
  };
}

/** Every post type core/v2/types lists, in registration order. */
export const POST_TYPE_REGISTRY: readonly PostTypeRegistration[] = [
  register({
    slug: "post", public: true, icon: "dashicons-admin-post", taxonomies: ["category", "post_tag"], restBase: "posts",
    supports: ["title", "editor", "author", "thumbnail", "excerpt", "trackbacks", "custom-fields", "comments", "revisions", "post-formats"],
    labels: { name_admin_bar: "Post" }, capabilities: typeCapabilities("post", "posts"),
  }),
  register({
    slug: "page", public: true, publiclyQueryable: false, hierarchical: true, icon: "dashicons-admin-page", restBase: "pages",
    supports: ["title", "editor", "author", "thumbnail", "page-attributes", "custom-fields", "comments", "revisions"],
    labels: { name_admin_bar: "Page" }, capabilities: typeCapabilities("page", "pages"),
  }),
  register({
    slug: "attachment", public: true, showUi: true, showInNavMenus: false, icon: "dashicons-admin-media", restBase: "media",
    supports: ["title", "author", "comments"],
    labels: { name: "Media", name_admin_bar: "Media", add_new: "Add New", edit_item: "Edit Media", view_item: "View Attachment Page", attributes: "Attachment Attributes" },
    capabilities: typeCapabilities("post", "posts", { create_posts: "upload_files" }),
  }),
  register({
    slug: "nav_menu_item", taxonomies: ["nav_menu"], restBase: "menu-items", supports: ["title", "editor"],
    labels: { name: "Navigation Menu Items", singular_name: "Navigation Menu Item" },
    capabilities: typeCapabilities("edit_theme_options", "edit_theme_options", {
      edit_post: "edit_post", read_post: "read_post", delete_post: "delete_post", read: "read",
      ...theme(["edit_posts", "edit_others_posts", "delete_posts", "publish_posts", "read_private_posts", "delete_private_posts",
        "delete_published_posts", "delete_others_posts", "edit_private_posts", "edit_published_posts"]),
    }),
  }),
  register({
    slug: "wp_block", showUi: true, restBase: "blocks", supports: ["title", "editor", "revisions"],
    labels: {
      name: "Reusable blocks", singular_name: "Reusable block", menu_name: "Reusable blocks", name_admin_bar: "Reusable block",
      add_new: "Add New", add_new_item: "Add new Reusable block", new_item: "New Reusable block", edit_item: "Edit Reusable block",
      view_item: "View Reusable block", all_items: "All Reusable blocks", search_items: "Search Reusable blocks",
      not_found: "No reusable blocks found.", not_found_in_trash: "No reusable blocks found in Trash.",
      filter_items_list: "Filter reusable blocks list", items_list_navigation: "Reusable blocks list navigation", items_list: "Reusable blocks list",
      item_published: "Reusable block published.", item_published_privately: "Reusable block published privately.",
      item_reverted_to_draft: "Reusable block reverted to draft.", item_scheduled: "Reusable block scheduled.", item_updated: "Reusable block updated.",
    },
    capabilities: typeCapabilities("block", "blocks", {
      read: "edit_posts", create_posts: "publish_posts", edit_posts: "edit_posts", edit_published_posts: "edit_published_posts",
      delete_published_posts: "delete_published_posts", edit_others_posts: "edit_others_posts", delete_others_posts: "delete_others_posts",
    }),
  }),
  register({
    slug: "wp_template", description: "Templates to include in your theme.", restBase: "templates",
    supports: ["title", "slug", "excerpt", "editor", "revisions", "author"],
    labels: {
      name: "Templates", singular_name: "Template", add_new: "Add New Template", add_new_item: "Add New Template", new_item: "New Template",
      edit_item: "Edit Template", view_item: "View Template", all_items: "Templates", search_items: "Search Templates",
      parent_item_colon: "Parent Template:", not_found: "No templates found.", not_found_in_trash: "No templates found in Trash.",
      archives: "Template archives", insert_into_item: "Insert into template", uploaded_to_this_item: "Uploaded to this template",
      filter_items_list: "Filter templates list", items_list_navigation: "Templates list navigation", items_list: "Templates list",
    },
    capabilities: typeCapabilities("template", "templates", TEMPLATE_CAPS),
  }),
  register({
    slug: "wp_template_part", description: "Template parts to include in your templates.", restBase: "template-parts",
    supports: ["title", "slug", "excerpt", "editor", "revisions", "author"],
    labels: {
      name: "Template Parts", singular_name: "Template Part", add_new: "Add New Template Part", add_new_item: "Add New Template Part",
      new_item: "New Template Part", edit_item: "Edit Template Part", view_item: "View Template Part", all_items: "Template Parts",
      search_items: "Search Template Parts", parent_item_colon: "Parent Template Part:", not_found: "No template parts found.",
      not_found_in_trash: "No template parts found in Trash.", archives: "Template part archives", insert_into_item: "Insert into template part",
      uploaded_to_this_item: "Uploaded to this template part", filter_items_list: "Filter template parts list",
      items_list_navigation: "Template parts list navigation", items_list: "Template parts list",
    },
    capabilities: typeCapabilities("template_part", "template_parts", TEMPLATE_CAPS),
  }),
  register({
    slug: "wp_navigation", description: "Navigation menus that can be inserted into your site.", showUi: true, restBase: "navigation",
    supports: ["title", "editor", "revisions"],
    labels: {
      name: "Navigation Menus", singular_name: "Navigation Menu", add_new: "Add New Navigation Menu", add_new_item: "Add New Navigation Menu",
      new_item: "New Navigation Menu", edit_item: "Edit Navigation Menu", view_item: "View Navigation Menu", all_items: "Navigation Menus",
      search_items: "Search Navigation Menus", parent_item_colon: "Parent Navigation Menu:", not_found: "No Navigation Menu found.",
      not_found_in_trash: "No Navigation Menu found in Trash.", archives: "Navigation Menu archives", insert_into_item: "Insert into Navigation Menu",
      uploaded_to_this_item: "Uploaded to this Navigation Menu", filter_items_list: "Filter Navigation Menu list",
      items_list_navigation: "Navigation Menus list navigation", items_list: "Navigation Menus list",
    },
    capabilities: typeCapabilities("post", "posts", theme(["edit_others_posts", "delete_posts", "publish_posts", "create_posts",
      "read_private_posts", "delete_private_posts", "delete_published_posts", "delete_others_posts", "edit_private_posts", "edit_published_posts", "edit_posts"])),
  }),
];

// The REST layer lists the same types by name (lib/wordpress/post-values.ts); the two must agree.
if (POST_TYPE_REGISTRY.map((t) => t.slug).join() !== REST_POST_TYPES.join()) {
  throw new Error("post-type-registry.ts and REST_POST_TYPES (lib/wordpress/post-values.ts) list different post types");
}
export { REST_POST_TYPES };

export const capabilityOf = (type: PostTypeRegistration, key: string): string =>
  type.capabilities.find(([k]) => k === key)?.[1] ?? key;

/** current_user_can( $type->cap->edit_posts ). */
export const canEditPostsOf = (viewer: Viewer | null, type: PostTypeRegistration): boolean => hasCap(viewer, capabilityOf(type, "edit_posts"));

/** Whether the viewer may edit posts of any REST-visible type (WordPress's edit-context gate for types and statuses). */
export const canEditAnyPostType = (viewer: Viewer | null): boolean => POST_TYPE_REGISTRY.some((t) => canEditPostsOf(viewer, t));

/** is_post_type_viewable. */
export const isViewable = (type: PostTypeRegistration): boolean => type.publiclyQueryable || type.public;

/** core/v2/types: every type; in edit context only the types the viewer may edit, and none at all is an error. */
export function listPostTypes(viewer: Viewer | null, editing: boolean): PostTypeRegistration[] {
  if (!editing) return [...POST_TYPE_REGISTRY];
  if (!canEditAnyPostType(viewer)) {
    refuse({ viewer }, "rest_cannot_view", "Sorry, you are not allowed to edit posts in this post type.");
  }
  return POST_TYPE_REGISTRY.filter((t) => canEditPostsOf(viewer, t));
}

/** core/v2/types/{type}. */
export function readPostType(viewer: Viewer | null, slug: string, editing: boolean): PostTypeRegistration {
  const type = POST_TYPE_REGISTRY.find((t) => t.slug === slug);
  if (!type) return fail("rest_type_invalid");
  if (editing && !canEditPostsOf(viewer, type)) {
    refuse({ viewer }, "rest_forbidden_context");
  }
  return type;
}
