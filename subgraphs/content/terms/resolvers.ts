// Thin resolvers of categories and tags (core/v2/categories, core/v2/tags): arguments in, term
// domain functions out.
import { refId, type EntityRef } from "../../../lib/entity-ref.ts";
import { fail } from "../../../lib/errors.ts";
import { databaseIdOf, toGlobalId } from "../../../lib/global-id.ts";
import { relayList } from "../connections.ts";
import { termIdArg, type IdType } from "../nodes/nodes.ts";
import { relativeUri } from "../posts/resolvers.ts";
import type { Resolvers } from "../../../generated/graphql/content-resolvers.ts";
import type { Term } from "../../../generated/prisma/client.ts";
import type { ContentContext } from "../context.ts";
import { termLink } from "../posts/permalinks.ts";
import { deleteTerm, listTerms, requireTerm, saveTerm, type TermInput, type TermListArgs } from "./terms.ts";

/** Fields every term type shares, derived from the row. */
const termFields = {
  __resolveReference: (ref: EntityRef, ctx: ContentContext) => ctx.loaders.term.load(refId(ref, "term")),
  id: (t: Term) => toGlobalId("term", t.id),
  databaseId: (t: Term) => t.id,
  uri: async (t: Term, _: unknown, ctx: ContentContext) => relativeUri(await termLink(ctx, t), (await ctx.site()).home),
  count: (t: Term, _: unknown, ctx: ContentContext) => ctx.loaders.termCount.load(t.id),
  link: (t: Term, _: unknown, ctx: ContentContext) => termLink(ctx, t),
};

/** A mutation's term id: a global id or the database id. */
const termId = (id: string | number) => databaseIdOf(id, "term") ?? fail("rest_term_invalid");
type Lookup = { id: string | number; idType?: IdType | null };
const one = (taxonomy: string, typename: string) => async (_: unknown, args: Lookup, ctx: ContentContext) =>
  requireTerm(ctx, taxonomy, await termIdArg(ctx, taxonomy, args.id, args.idType ?? "ID", typename));
type Cursors = { first?: number | null; after?: string | null; last?: number | null; before?: string | null };

export const termResolvers: Resolvers = {
  Query: {
    categories: (_: unknown, args: TermListArgs & Cursors, ctx: ContentContext) => relayList("categories", args, (a) => listTerms(ctx, "category", a)),
    category: one("category", "Category"),
    tags: (_: unknown, args: TermListArgs & Cursors, ctx: ContentContext) => relayList("tags", args, (a) => listTerms(ctx, "post_tag", a)),
    tag: one("post_tag", "Tag"),
  },
  Mutation: {
    createCategory: (_: unknown, args: { input: TermInput }, ctx: ContentContext) => saveTerm(ctx, "category", args.input),
    updateCategory: (_: unknown, args: { id: string | number; input: TermInput }, ctx: ContentContext) => saveTerm(ctx, "category", args.input, termId(args.id)),
    deleteCategory: async (_: unknown, args: { id: string | number; force?: boolean | null }, ctx: ContentContext) =>
      ({ deleted: true, previous: await deleteTerm(ctx, "category", termId(args.id), args.force ?? false) }),
    createTag: (_: unknown, args: { input: TermInput }, ctx: ContentContext) => saveTerm(ctx, "post_tag", args.input),
    updateTag: (_: unknown, args: { id: string | number; input: TermInput }, ctx: ContentContext) => saveTerm(ctx, "post_tag", args.input, termId(args.id)),
    deleteTag: async (_: unknown, args: { id: string | number; force?: boolean | null }, ctx: ContentContext) =>
      ({ deleted: true, previous: await deleteTerm(ctx, "post_tag", termId(args.id), args.force ?? false) }),
  },
  Category: { ...termFields, parent: (t: Term) => t.parentId },
  Tag: termFields,
};
