// WPGraphQL's opaque global ids: base64 of "<kind>:<databaseId>". The kind is the store the row
// lives in, as WPGraphQL names its loaders: every post type (posts, pages, attachments, menu items,
// revisions) is a `post`, every taxonomy's term (categories, tags, menus) a `term`, users `user`.
// The GraphQL type a global id names follows from the row it loads (its post type or taxonomy).

export type GlobalKind = "post" | "term" | "user";

const KINDS: readonly GlobalKind[] = ["post", "term", "user"];

/** The global id of a row: base64("post:12"). */
export const toGlobalId = (kind: GlobalKind, databaseId: number): string => Buffer.from(`${kind}:${databaseId}`, "utf8").toString("base64");

/** What a global id names, or null when the string is not one made here (wrong alphabet, kind or number). */
export function fromGlobalId(id: string): { kind: GlobalKind; databaseId: number } | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(id)) return null;
  const m = /^([a-z]+):(\d{1,10})$/.exec(Buffer.from(id, "base64").toString("utf8"));
  if (!m || !KINDS.includes(m[1] as GlobalKind)) return null;
  const databaseId = Number(m[2]);
  return databaseId > 0 && databaseId < 2 ** 31 ? { kind: m[1] as GlobalKind, databaseId } : null;
}

/**
 * The database id an `id: ID!` argument of a mutation names: a global id of the expected kind, or
 * (as WPGraphQL's mutations also take) the database id itself; null for anything else.
 */
export function databaseIdOf(id: string | number, kind: GlobalKind): number | null {
  if (typeof id === "number") return Number.isInteger(id) ? id : null;
  if (/^\d{1,10}$/.test(id)) return Number(id);
  const global = fromGlobalId(id);
  return global && global.kind === kind ? global.databaseId : null;
}
