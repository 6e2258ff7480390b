// The supergraph: @apollo/gateway over the composed subgraphs, inside Apollo Server. Both
// /graphql and the REST layers execute through it, so every subgraph sees the same signed identity.
import { ApolloServer, type GraphQLResponse } from "@apollo/server";
import { ApolloServerPluginLandingPageLocalDefault } from "@apollo/server/plugin/landingPage/default";
import { ApolloGateway, RemoteGraphQLDataSource } from "@apollo/gateway";
import type { DocumentNode } from "graphql";
import { IDENTITY_HEADER, signIdentity, type Identity } from "../lib/identity.ts";
import { errorStatus } from "../lib/errors.ts";
import type { FormattedExecutionResult } from "graphql";

export interface RouterContext {
  identity: Identity;
  /** The identity, signed once per request and forwarded on every subgraph fetch. */
  identityToken: string;
}

export async function routerContext(identity: Identity, secretKey: Buffer): Promise<RouterContext> {
  return { identity, identityToken: await signIdentity(identity, secretKey) };
}

export async function createGraph(supergraphSdl: string): Promise<ApolloServer<RouterContext>> {
  const gateway = new ApolloGateway({
    supergraphSdl,
    buildService: ({ url }) => new RemoteGraphQLDataSource<RouterContext>({
      url,
      willSendRequest({ request, context }) {
        if (context.identityToken) request.http?.headers.set(IDENTITY_HEADER, context.identityToken);
      },
    }),
  });
  const server = new ApolloServer<RouterContext>({
    gateway,
    introspection: true,
    csrfPrevention: true,
    includeStacktraceInErrorResponses: false,
    plugins: [ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false })],
    // Show each domain error's HTTP status as extensions.http.status too (added after Apollo
    // Server has read `http`, so the GraphQL response itself stays 200 with partial data).
    formatError: (formatted) => {
      const status = errorStatus(formatted.extensions);
      return status === undefined ? formatted : { ...formatted, extensions: { ...formatted.extensions, http: { status } } };
    },
  });
  await server.start();
  return server;
}

export type Execute = (
  document: DocumentNode | string, variables: Record<string, unknown>, context: RouterContext,
) => Promise<FormattedExecutionResult>;

/** Runs one operation in-process through the gateway (no HTTP hop between router and itself). */
export function executor(server: ApolloServer<RouterContext>): Execute {
  return async (document, variables, context) => {
    const response: GraphQLResponse = await server.executeOperation(
      typeof document === "string" ? { query: document, variables } : { query: document, variables },
      { contextValue: context },
    );
    if (response.body.kind !== "single") throw new Error("Incremental delivery is not used by the REST layer");
    return response.body.singleResult as FormattedExecutionResult;
  };
}
