// Per-request DataLoaders: every lookup by id made while resolving one request is coalesced into
// one query per kind, so a list costs the same number of statements whatever its length.
import DataLoader from "dataloader";
import type { PrismaClient } from "../../lib/db.ts";
import { isStoredId } from "../../lib/wordpress/limits.ts";
import { REST_POST_TYPES } from "./site/post-type-registry.ts";
import type { Post, Prisma, Term, User } from "../../generated/prisma/client.ts";

export interface ContentLoaders {
  post: DataLoader<number, Post | null>;
  user: DataLoader<number, User | null>;
  term: DataLoader<number, Term | null>;
  /** Term ids of a post, by taxonomy, in term order. */
  postTerms: DataLoader<number, { category: number[]; post_tag: number[]; nav_menu: number[] }>;
  /** Revisions + autosaves of a post: how many, and the newest id. */
  revisionSummary: DataLoader<number, { count: number; latestId: number | null }>;
  /** Published posts per term (the term's `count`). */
  termCount: DataLoader<number, number>;
  /** Site options by name (null when unset); writers clear and prime what they change. */
  option: DataLoader<string, Prisma.JsonValue | null>;
  /** Published items of each menu (nav_menu term id), in menu order. */
  menuItems: DataLoader<number, Post[]>;
  /** Whether a user has published posts of a REST-visible type (who visitors may see). */
  authorPublished: DataLoader<number, boolean>;
}

function byId<T extends { id: number }>(ids: readonly number[], rows: T[]): (T | null)[] {
  const map = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => map.get(id) ?? null);
}

/** The ids a row could have: any other id names nothing, and is kept out of the query (an int4 column). */
const storedIds = (ids: readonly number[]): number[] => ids.filter(isStoredId);

export function createLoaders(prisma: PrismaClient): ContentLoaders {
  return {
    post: new DataLoader(async (ids) => byId(ids, await prisma.post.findMany({ where: { id: { in: storedIds(ids) } } }))),
    user: new DataLoader(async (ids) => byId(ids, await prisma.user.findMany({ where: { id: { in: storedIds(ids) } } }))),
    term: new DataLoader(async (ids) => byId(ids, await prisma.term.findMany({ where: { id: { in: storedIds(ids) } } }))),
    postTerms: new DataLoader(async (postIds) => {
      const rows = await prisma.postTerm.findMany({
        where: { postId: { in: [...postIds] } },
        include: { term: { select: { taxonomy: true } } },
        orderBy: [{ termOrder: "asc" }, { termId: "asc" }],
      });
      return postIds.map((postId) => {
        const result = { category: [] as number[], post_tag: [] as number[], nav_menu: [] as number[] };
        for (const row of rows) {
          if (row.postId !== postId) continue;
          const list = result[row.term.taxonomy as keyof typeof result];
          list?.push(row.termId);
        }
        return result;
      });
    }),
    revisionSummary: new DataLoader(async (parentIds) => {
      const rows = await prisma.post.groupBy({
        by: ["parentId"], where: { type: "revision", parentId: { in: [...parentIds] } }, _count: { _all: true }, _max: { id: true },
      });
      const map = new Map(rows.map((r) => [r.parentId, { count: r._count._all, latestId: r._max.id }]));
      return parentIds.map((id) => map.get(id) ?? { count: 0, latestId: null });
    }),
    termCount: new DataLoader(async (termIds) => {
      // Kept by the database per term, type and status (PostTermCount): read, not counted over every post.
      const rows = await prisma.postTermCount.groupBy({
        by: ["termId"], where: { termId: { in: [...termIds] }, status: "publish" }, _sum: { count: true },
      });
      const map = new Map(rows.map((r) => [r.termId, r._sum.count ?? 0]));
      return termIds.map((id) => map.get(id) ?? 0);
    }),
    option: new DataLoader(async (names) => {
      const rows = await prisma.option.findMany({ where: { name: { in: [...names] } } });
      return names.map((name) => rows.find((r) => r.name === name)?.value ?? null);
    }),
    menuItems: new DataLoader(async (menuIds) => {
      const rows = await prisma.postTerm.findMany({
        where: { termId: { in: [...menuIds] }, post: { type: "nav_menu_item", status: "publish" } },
        include: { post: true },
        orderBy: [{ post: { menuOrder: "asc" } }, { postId: "asc" }],
      });
      return menuIds.map((menuId) => rows.filter((r) => r.termId === menuId).map((r) => r.post));
    }),
    authorPublished: new DataLoader(async (userIds) => {
      const rows = await prisma.post.groupBy({
        by: ["authorId"], where: { authorId: { in: [...userIds] }, status: "publish", type: { in: [...REST_POST_TYPES] } }, _count: { _all: true },
      });
      const authors = new Set(rows.map((r) => r.authorId));
      return userIds.map((id) => authors.has(id));
    }),
  };
}
