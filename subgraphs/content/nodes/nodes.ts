// Global object identification (WPGraphQL's conventions): every entity has an opaque `id`
// (lib/global-id.ts) beside its `databaseId`; `node(id)` loads any of them, `nodeByUri(uri)`
// finds what a front end's address shows, and each single-item lookup takes `idType` to name the
// item by database id, global id, slug, name or address. What the caller may not read is null
// here, as it is in WPGraphQL; the typed lookups (post, page, …) keep their errors.
import type { Post, Term, User } from "../../../generated/prisma/client.ts";
import type { ErrorCode } from "../../../lib/error-codes.ts";
import { DomainError, fail } from "../../../lib/errors.ts";
import { fromGlobalId, type GlobalKind } from "../../../lib/global-id.ts";
import type { ContentContext } from "../context.ts";
import { canEditPost, canReadPost } from "../permissions.ts";
import { readableAttachment } from "../media/attachments.ts";
import { attachmentLink } from "../media/presentation.ts";
import { MENU_ITEM, setupMenuItem } from "../menus/menu-items.ts";
import { canReadMenu, canReadMenuItem, NAV_MENU } from "../menus/menus.ts";
import { permalink, termLink } from "../posts/permalinks.ts";
import { canListUsers, readUser } from "../users/user-directory.ts";

/** The GraphQL type of a post row, by its post type. */
const POST_TYPENAMES: Record<string, string> = { post: "Post", page: "Page", attachment: "MediaItem", [MENU_ITEM]: "MenuItem", revision: "Revision" };
/** The GraphQL type of a term row, by its taxonomy. */
const TERM_TYPENAMES: Record<string, string> = { category: "Category", post_tag: "Tag", [NAV_MENU]: "Menu" };

/** A resolved node: the parent value its type's resolvers take, tagged with the type (Node.__resolveType reads it). */
export type NodeValue = { __typename: string } & Record<string, unknown>;

const tagged = <T extends object>(value: T, typename: string) => ({ ...value, __typename: typename }) as unknown as NodeValue;

/** null instead of a domain error (missing, or not for this caller): node lookups answer null. */
async function orNull<T>(load: () => Promise<T | null>): Promise<T | null> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof DomainError) return null;
    throw error;
  }
}

/** A post row as the node it is, if the caller may read it. */
export async function postNode(ctx: ContentContext, row: Post): Promise<NodeValue | null> {
  const typename = POST_TYPENAMES[row.type];
  if (!typename) return null;
  switch (row.type) {
    case "attachment": {
      const readable = await readableAttachment(ctx, row.id);
      return readable ? tagged(readable, typename) : null;
    }
    case MENU_ITEM:
      return (await canReadMenuItem(ctx, row)) ? tagged(await setupMenuItem(ctx, row), typename) : null;
    case "revision": {
      // A revision is readable by those who may edit its parent (WordPress's revisions controller).
      const parent = await ctx.loaders.post.load(row.parentId);
      return parent && canEditPost(ctx.viewer, parent) ? tagged(row, typename) : null;
    }
    default:
      return canReadPost(ctx.viewer, row) ? tagged(row, typename) : null;
  }
}

/** A term row as the node it is (categories and tags are public; menus as canReadMenu says). */
export async function termNode(ctx: ContentContext, term: Term): Promise<NodeValue | null> {
  const typename = TERM_TYPENAMES[term.taxonomy];
  if (!typename) return null;
  if (term.taxonomy === NAV_MENU && !(await canReadMenu(ctx, term.id))) return null;
  return tagged(term, typename);
}

async function userNode(ctx: ContentContext, id: number): Promise<NodeValue | null> {
  const user = await orNull(() => readUser(ctx, id));
  return user ? tagged(user, "User") : null;
}

/** `node(id)`: whatever a global id names, when it exists and the caller may read it. */
export async function nodeById(ctx: ContentContext, id: string): Promise<NodeValue | null> {
  const global = fromGlobalId(id);
  if (!global) return null;
  return loadNode(ctx, global.kind, global.databaseId);
}

async function loadNode(ctx: ContentContext, kind: GlobalKind, databaseId: number): Promise<NodeValue | null> {
  switch (kind) {
    case "post": {
      const row = await ctx.loaders.post.load(databaseId);
      return row ? postNode(ctx, row) : null;
    }
    case "term": {
      const term = await ctx.loaders.term.load(databaseId);
      return term ? termNode(ctx, term) : null;
    }
    case "user":
      return userNode(ctx, databaseId);
  }
}

// ---- addresses ----

/** The path and query of an address on the site (full URL or path), normalised to end in "/" before any query. */
function sitePath(uri: string, home: string): { path: string; query: URLSearchParams } | null {
  let url: URL;
  try {
    url = new URL(uri, `${home}/`);
  } catch {
    return null;
  }
  const base = new URL(`${home}/`);
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return null;
  const rest = url.pathname.slice(base.pathname.length).replace(/^\/+|\/+$/g, "");
  return { path: rest ? `/${rest}/` : "/", query: url.searchParams };
}

const sameAddress = (a: string, b: string) => a.replace(/\/+$/, "") === b.replace(/\/+$/, "");

/**
 * What an address shows, as `nodeByUri` answers it: a post, page or attachment by its permalink
 * (or plain `?p=` / `?page_id=` / `?attachment_id=` form), a category or tag archive, an author
 * archive. The front page ("/") shows the static front page when one is set.
 */
export async function nodeByUri(ctx: ContentContext, uri: string): Promise<NodeValue | null> {
  const { home, options } = await ctx.site();
  const where = sitePath(uri, home);
  if (!where) return null;
  const { path, query } = where;
  for (const name of ["p", "page_id", "attachment_id"]) {
    const id = query.get(name);
    if (id && /^\d{1,10}$/.test(id)) return loadNode(ctx, "post", Number(id));
  }
  if (path === "/") {
    const front = options.show_on_front === "page" ? Number(options.page_on_front) : 0;
    return front > 0 ? loadNode(ctx, "post", front) : null;
  }
  let segments: string[];
  try {
    segments = path.split("/").filter(Boolean).map((s) => decodeURIComponent(s).toLowerCase());
  } catch {
    return null; // A malformed %-escape names nothing.
  }
  const last = segments[segments.length - 1];
  const target = `${home}${path}`;
  if (segments[0] === "author" && segments.length === 2) {
    const user = await ctx.prisma.user.findFirst({ where: { nicename: last } });
    return user ? userNode(ctx, user.id) : null;
  }
  if ((segments[0] === "category" || segments[0] === "tag") && segments.length >= 2) {
    const taxonomy = segments[0] === "category" ? "category" : "post_tag";
    const terms = await ctx.prisma.term.findMany({ where: { taxonomy, slug: last } });
    for (const term of terms) if (sameAddress(await termLink(ctx, term), target)) return termNode(ctx, term);
    return null;
  }
  // Posts, pages and attachments with this slug: the one whose permalink is this address.
  const rows = await ctx.prisma.post.findMany({ where: { slug: last, type: { in: ["post", "page", "attachment"] } }, orderBy: { id: "asc" } });
  const loadPost = (id: number) => ctx.loaders.post.load(id);
  for (const row of rows) {
    const link = row.type === "attachment"
      ? attachmentLink(row, row.parentId > 0 ? await parentLink(row.parentId, home, loadPost) : null, home)
      : await permalink(row, home, loadPost);
    if (sameAddress(link, target)) return postNode(ctx, row);
  }
  return null;
}

async function parentLink(parentId: number, home: string, loadPost: (id: number) => Promise<Post | null>): Promise<string | null> {
  const parent = await loadPost(parentId);
  return parent ? permalink(parent, home, loadPost) : null;
}

// ---- idType lookups ----

export type IdType = "DATABASE_ID" | "ID" | "SLUG" | "URI" | "NAME" | "USERNAME" | "EMAIL" | "LOCATION";

/** The database id `id` names as a database id or a global id of `kind`; `invalid` when it names none. */
export function databaseIdArg(id: string | number, idType: "DATABASE_ID" | "ID", kind: GlobalKind, invalid: ErrorCode): number {
  if (idType === "DATABASE_ID") {
    const n = typeof id === "number" ? id : /^-?\d{1,10}$/.test(id) ? Number(id) : NaN;
    return Number.isInteger(n) ? n : fail(invalid);
  }
  const global = fromGlobalId(String(id));
  return global && global.kind === kind ? global.databaseId : fail(invalid);
}

/** A post of `type` by slug: the published one first, then the oldest (WordPress's get_page_by_path prefers the same). */
export async function postIdBySlug(ctx: ContentContext, type: string, slug: string, invalid: ErrorCode): Promise<number> {
  const rows = await ctx.prisma.post.findMany({ where: { type, slug, status: { notIn: ["trash", "auto-draft"] } }, orderBy: { id: "asc" } });
  const row = rows.find((r) => r.status === "publish") ?? rows[0];
  return row ? row.id : fail(invalid);
}

/** The database id of what an address shows, when it is of `typename`. */
export async function idByUri(ctx: ContentContext, uri: string, typename: string, invalid: ErrorCode): Promise<number> {
  const node = await nodeByUri(ctx, uri);
  if (!node || node.__typename !== typename) return fail(invalid);
  return (node as unknown as { id: number }).id ?? ((node as unknown as { row: Post }).row).id;
}

/** A user lookup's database id by any of UserNodeIdType's spellings. */
export async function userIdArg(ctx: ContentContext, id: string | number, idType: IdType): Promise<number> {
  const invalid: ErrorCode = "rest_user_invalid_id";
  const value = String(id);
  let user: User | null = null;
  switch (idType) {
    case "DATABASE_ID": case "ID": return databaseIdArg(id, idType, "user", invalid);
    case "SLUG": user = await ctx.prisma.user.findFirst({ where: { nicename: value } }); break;
    case "USERNAME": user = await ctx.prisma.user.findFirst({ where: { login: value } }); break;
    case "EMAIL": user = await ctx.prisma.user.findFirst({ where: { email: { equals: value, mode: "insensitive" } } }); break;
    case "URI": return idByUri(ctx, value, "User", invalid);
    default: return fail(invalid);
  }
  // Logins and email addresses are private: only the user themself and those who may list users find anyone by them.
  const private_ = idType === "USERNAME" || idType === "EMAIL";
  if (!user || (private_ && ctx.viewer?.id !== user.id && !canListUsers(ctx.viewer))) return fail(invalid);
  return user.id;
}

/** A term lookup's database id (categories, tags, menus) by DATABASE_ID, ID, SLUG, NAME or URI. */
export async function termIdArg(ctx: ContentContext, taxonomy: string, id: string | number, idType: IdType, typename: string): Promise<number> {
  const invalid: ErrorCode = "rest_term_invalid";
  switch (idType) {
    case "DATABASE_ID": case "ID": return databaseIdArg(id, idType, "term", invalid);
    case "SLUG": case "NAME": {
      const term = await ctx.prisma.term.findFirst({ where: { taxonomy, ...(idType === "SLUG" ? { slug: String(id) } : { name: String(id) }) }, orderBy: { id: "asc" } });
      return term ? term.id : fail(invalid);
    }
    case "URI": return idByUri(ctx, String(id), typename, invalid);
    default: return fail(invalid);
  }
}

/** A post-type lookup's database id (posts, pages, media, menu items) by DATABASE_ID, ID, SLUG or URI. */
export async function postIdArg(ctx: ContentContext, type: string, id: string | number, idType: IdType, typename: string): Promise<number> {
  const invalid: ErrorCode = "rest_post_invalid_id";
  switch (idType) {
    case "DATABASE_ID": case "ID": return databaseIdArg(id, idType, "post", invalid);
    case "SLUG": return postIdBySlug(ctx, type, String(id), invalid);
    case "URI": return idByUri(ctx, String(id), typename, invalid);
    default: return fail(invalid);
  }
}
