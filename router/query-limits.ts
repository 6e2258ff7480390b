// Limits on what a GraphQL client may ask of the router in one request, so one request cannot
// freeze the server: its size in tokens (counted before parsing), its depth, aliases, directives
// and cost (GraphQL Armor's rules), and the size of the answer. They apply to documents clients
// send to /graphql; the REST layers' documents are the router's own (one declared operation per
// route, merged for batch/v1 and _embed), bounded by their routes instead.
import type { ApolloServerPlugin } from "@apollo/server";
import type { FastifyReply, FastifyRequest } from "fastify";
import { costLimitRule } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthRule } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesRule } from "@escape.tech/graphql-armor-max-directives";
import { GraphQLError, Lexer, Source, TokenKind } from "graphql";
import type { QueryLimits } from "../lib/config.ts";
import { graphqlCommonJs } from "../lib/graphql-commonjs.ts";
import type { RouterContext } from "./graph.ts";

/** The gateway's schema and Armor's rules belong to graphql-js's CommonJS copy: validate with that copy. */
const { validate } = graphqlCommonJs;

/** A refusal in GraphQL's shape, with its HTTP status, the stable code and the limit it broke. */
const refusal = (code: string, status: number, message: string) =>
  new GraphQLError(message, { extensions: { code, status, http: { status } } });

/** Counts a document's tokens, stopping as soon as there are more than `max` (no parse, no AST). */
function tooManyTokens(query: string, max: number): boolean {
  const lexer = new Lexer(new Source(query));
  try {
    for (let count = 0; lexer.advance().kind !== TokenKind.EOF; count++) if (count >= max) return true;
  } catch {
    return false; // a syntax error: parsing reports it as usual
  }
  return false;
}

export function queryLimits(limits: QueryLimits): ApolloServerPlugin<RouterContext> {
  const rules = [
    maxDepthRule({ n: limits.maxDepth }),
    maxAliasesRule({ n: limits.maxAliases }),
    maxDirectivesRule({ n: limits.maxDirectives }),
    costLimitRule({ maxCost: limits.maxCost }),
  ];
  // Apollo Server hands back the same parsed document for the same query text (its document
  // store), so each document is judged once, not on every request that sends it.
  const judged = new WeakMap<object, { message: string } | null>();
  const judge = (schema: Parameters<typeof validate>[0], document: Parameters<typeof validate>[1]) => {
    let broken = judged.get(document);
    if (broken !== undefined) return broken;
    try {
      broken = validate(schema, document, rules)[0] ?? null;
    } catch (error) {
      broken = error as Error; // Armor's rules may throw their refusal instead of reporting it
    }
    judged.set(document, broken);
    return broken;
  };
  return {
    async requestDidStart({ contextValue }) {
      if (!contextValue.graphqlClient) return;
      return {
        async didResolveOperation({ document, schema }) {
          const broken = judge(schema, document);
          if (broken) throw refusal("query_too_complex", 400, broken.message.replace(/^Syntax Error: /, ""));
        },
        async willSendResponse({ response }) {
          if (response.body.kind !== "single") return;
          const size = Buffer.byteLength(JSON.stringify(response.body.singleResult));
          if (size <= limits.maxResponseBytes) return;
          const { message, extensions } = refusal("response_too_large", 413, `The answer would be ${size} bytes; at most ${limits.maxResponseBytes} are sent. Ask for fewer items or fields.`);
          response.body.singleResult = { errors: [{ message, extensions }] };
          response.http.status = 413;
        },
      };
    },
  };
}

/**
 * Refuses a client's document with more than `maxTokens` tokens before Apollo parses it (a 789 KB
 * document of aliases would otherwise hold the event loop): a Fastify hook on the /graphql routes.
 */
export function tokenLimit(limits: QueryLimits) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const body = request.body as { query?: unknown } | undefined;
    const query = (request.query as { query?: unknown } | undefined)?.query ?? body?.query;
    if (typeof query !== "string" || !tooManyTokens(query, limits.maxTokens)) return;
    const { message, extensions } = refusal("query_too_large", 400, `The query has more than ${limits.maxTokens} tokens.`);
    await reply.status(400).header("content-type", "application/json; charset=utf-8").send(JSON.stringify({ errors: [{ message, extensions }] }));
  };
}
