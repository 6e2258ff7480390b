// A GraphQL request to another subgraph on behalf of the caller: the caller's identity signed
// as our router signs it (lib/identity.ts), so the owning subgraph applies its own permissions.
// Shared by the areas that read or check content as the caller (seo/, languages/).
import { signIdentity } from "../../lib/identity.ts";
import { subgraphSecretHeaders } from "../../lib/subgraph-secret.ts";
import { subgraphUrl } from "../../lib/subgraph-peers.ts";
import { IDENTITY_HEADER } from "../../lib/identity.ts";
import { DomainError, errorStatus } from "../../lib/errors.ts";
import type { ExtensionsContext } from "./context.ts";

/** One error of a peer's answer, as GraphQL reports it. */
export interface PeerError {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; status?: number; data?: Record<string, unknown> };
}

/** The whole answer: data (fields that failed are null) and every error with its path. */
export async function askSubgraphAsPartial<T>(ctx: ExtensionsContext, name: "content", query: string, variables: Record<string, unknown>): Promise<{ data: T | null; errors: PeerError[] }> {
  const { router: _router, ...identity } = ctx.identity;
  const response = await fetch(subgraphUrl(ctx.config, name), {
    method: "POST",
    headers: {
      "content-type": "application/json",
      [IDENTITY_HEADER]: await signIdentity(identity, ctx.config.secretKey),
      ...subgraphSecretHeaders(ctx.config.subgraphSecret),
    },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T | null; errors?: PeerError[] };
  return { data: body.data ?? null, errors: body.errors ?? [] };
}

/** The data of an answer; its first error, if any, is raised with the peer's code and status. */
export async function askSubgraphAs<T>(ctx: ExtensionsContext, name: "content", query: string, variables: Record<string, unknown>): Promise<T> {
  const { data, errors } = await askSubgraphAsPartial<T>(ctx, name, query, variables);
  const error = errors[0];
  if (error) throw new DomainError(error.extensions?.code ?? "rest_internal_error", error.message, errorStatus(error.extensions) ?? 500, { data: error.extensions?.data });
  return data as T;
}
