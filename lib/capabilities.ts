// WordPress roles and the capabilities they grant (the stock role table, reduced to the
// capabilities this site checks). `can` answers for a set of roles.

const SUBSCRIBER = ["read"];
const CONTRIBUTOR = [...SUBSCRIBER, "edit_posts", "delete_posts"];
const AUTHOR = [...CONTRIBUTOR, "upload_files", "publish_posts", "edit_published_posts", "delete_published_posts"];
const EDITOR = [
  ...AUTHOR, "moderate_comments", "manage_categories", "manage_links", "unfiltered_html",
  "edit_others_posts", "delete_others_posts", "read_private_posts", "edit_private_posts", "delete_private_posts",
  "edit_pages", "edit_others_pages", "edit_published_pages", "publish_pages", "delete_pages",
  "delete_others_pages", "delete_published_pages", "read_private_pages", "edit_private_pages", "delete_private_pages",
];
const ADMINISTRATOR = [
  ...EDITOR, "switch_themes", "edit_themes", "activate_plugins", "edit_plugins", "edit_users", "edit_files",
  "manage_options", "import", "export", "list_users", "create_users", "delete_users", "promote_users",
  "edit_theme_options", "edit_dashboard", "customize", "update_core", "install_plugins",
];

export const ROLE_CAPABILITIES: Record<string, ReadonlySet<string>> = {
  administrator: new Set(ADMINISTRATOR),
  editor: new Set(EDITOR),
  author: new Set(AUTHOR),
  contributor: new Set(CONTRIBUTOR),
  subscriber: new Set(SUBSCRIBER),
};

export const ROLES = Object.keys(ROLE_CAPABILITIES);

/** What an OAuth token with the `read` scope alone keeps: reading as the user, nothing that writes. */
export const READING_CAPABILITIES: ReadonlySet<string> = new Set(["read", "read_private_posts", "read_private_pages", "list_users"]);

/** Whether granted OAuth scopes (none: not an OAuth caller) allow writing as the user. */
export const scopeAllowsWrites = (scope: readonly string[] | undefined): boolean => !scope || scope.includes("write");

/** `scope`: the OAuth scopes the caller's token carries; without `write`, only reading capabilities. */
export function can(roles: readonly string[] | undefined, capability: string, scope?: readonly string[]): boolean {
  if (!scopeAllowsWrites(scope) && !READING_CAPABILITIES.has(capability)) return false;
  return (roles ?? []).some((role) => ROLE_CAPABILITIES[role]?.has(capability) ?? false);
}
