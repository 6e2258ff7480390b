// The value rules of Polylang's languages and options (lang/v1), one list each: the REST argument
// schemas and the extensions subgraph's own checks both read them.

/** A language code (slug): Polylang's item schema pattern, also the key pattern of `domains` and `nav_menus`. */
export const LANGUAGE_SLUG_PATTERN = "^[a-z][a-z0-9_-]*$";
export const LANGUAGE_SLUG_REGEX = new RegExp(LANGUAGE_SLUG_PATTERN);

/** A WordPress locale (en_US, fr_FR, de_DE_formal, pt_PT_ao90, haz). */
export const LOCALE_PATTERN = "^[a-z]{2,3}(?:_[A-Z]{2})?(?:_[a-z0-9]+)?$";
export const LOCALE_REGEX = new RegExp(LOCALE_PATTERN);

/** `force_lang`: 1 directory, 2 subdomain, 3 domain (0, the content language, is not offered). */
export const FORCE_LANG_VALUES = [1, 2, 3] as const;

/** What `sync` may list: the post data copied between translations. */
export const SYNC_OPTIONS = [
  "taxonomies", "post_meta", "comment_status", "ping_status", "sticky_posts", "post_date", "post_format",
  "post_parent", "_wp_page_template", "menu_order", "_thumbnail_id",
] as const;

/** Representations a language read may ask for; `edit` needs the right to manage languages. */
export const LANGUAGE_CONTEXTS = ["view", "edit"] as const;
