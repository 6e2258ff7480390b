// The value sets of the site's posts (seed 000 §2.1, §3), one list each: the REST argument
// schemas and the content subgraph's own checks both read them.

/** Statuses a post may be given on create and update. */
export const SETTABLE_STATUSES = ["publish", "future", "draft", "pending", "private", "negated", "wpca_except", "wpca_or"];

/** Statuses a list may be filtered by (`any` matches all but trash and auto-draft). */
export const FILTER_STATUSES = [
  "publish", "future", "draft", "pending", "private", "trash", "auto-draft", "inherit", "request-pending",
  "request-confirmed", "request-failed", "request-completed", "dp-rewrite-republish", "negated", "wpca_except", "wpca_or", "any",
];

/** Post formats ("standard" when none is set). */
export const FORMATS = ["standard", "aside", "chat", "gallery", "link", "image", "quote", "status", "video", "audio"];

/**
 * Post types visible through the REST API (get_post_types(['show_in_rest' => true]) of WordPress
 * 6.1), in registration order. The content subgraph's registry describes each of them.
 */
export const REST_POST_TYPES: readonly string[] = ["post", "page", "attachment", "nav_menu_item", "wp_block", "wp_template", "wp_template_part", "wp_navigation"];

/** `comment_status` and `ping_status` of a post (and the site's defaults for new posts). */
export const COMMENT_STATUSES = ["open", "closed"];
