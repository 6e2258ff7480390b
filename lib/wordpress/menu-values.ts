// The value sets of menus and menu items (core/v2/menus, core/v2/menu-items), one list each: the
// REST argument schemas and the content subgraph's own checks both read them.

/** What a menu item links to: a term, a post, a post type's archive, or a URL. */
export const MENU_ITEM_TYPES = ["taxonomy", "post_type", "post_type_archive", "custom"];

/** A menu item link's `target` attribute. */
export const MENU_ITEM_TARGETS = ["_blank", ""];

/** The menu locations the site's theme registers, with their names. */
export const MENU_LOCATIONS: Readonly<Record<string, string>> = { primary: "Primary Menu", footer: "Footer Menu" };
