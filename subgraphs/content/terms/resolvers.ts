// Thin resolvers of categories and tags (core/v2/categories, core/v2/tags): arguments in, term
// domain functions out.
import { refId, type EntityRef } from "../../../lib/entity-ref.ts";
import type { Resolvers } from "../../../generated/graphql/content-resolvers.ts";
import type { Term } from "../../../generated/prisma/client.ts";
import type { ContentContext } from "../context.ts";
import { termLink } from "../posts/permalinks.ts";
import { deleteTerm, listTerms, requireTerm, saveTerm, type TermInput, type TermListArgs } from "./terms.ts";

/** Fields every term type shares, derived from the row. */
const termFields = {
  __resolveReference: (ref: EntityRef, ctx: ContentContext) => ctx.loaders.term.load(refId(ref)),
  databaseId: (t: Term) => t.id,
  count: (t: Term, _: unknown, ctx: ContentContext) => ctx.loaders.termCount.load(t.id),
  link: (t: Term, _: unknown, ctx: ContentContext) => termLink(ctx, t),
};

export const termResolvers: Resolvers = {
  Query: {
    categories: (_: unknown, args: TermListArgs, ctx: ContentContext) => listTerms(ctx, "category", args),
    category: (_: unknown, args: { id: number }, ctx: ContentContext) => requireTerm(ctx, "category", args.id),
    tags: (_: unknown, args: TermListArgs, ctx: ContentContext) => listTerms(ctx, "post_tag", args),
    tag: (_: unknown, args: { id: number }, ctx: ContentContext) => requireTerm(ctx, "post_tag", args.id),
  },
  Mutation: {
    createCategory: (_: unknown, args: { input: TermInput }, ctx: ContentContext) => saveTerm(ctx, "category", args.input),
    updateCategory: (_: unknown, args: { id: number; input: TermInput }, ctx: ContentContext) => saveTerm(ctx, "category", args.input, args.id),
    deleteCategory: async (_: unknown, args: { id: number; force?: boolean | null }, ctx: ContentContext) =>
      ({ deleted: true, previous: await deleteTerm(ctx, "category", args.id, args.force ?? false) }),
    createTag: (_: unknown, args: { input: TermInput }, ctx: ContentContext) => saveTerm(ctx, "post_tag", args.input),
    updateTag: (_: unknown, args: { id: number; input: TermInput }, ctx: ContentContext) => saveTerm(ctx, "post_tag", args.input, args.id),
    deleteTag: async (_: unknown, args: { id: number; force?: boolean | null }, ctx: ContentContext) =>
      ({ deleted: true, previous: await deleteTerm(ctx, "post_tag", args.id, args.force ?? false) }),
  },
  Category: { ...termFields, parent: (t: Term) => t.parentId },
  Tag: termFields,
};
