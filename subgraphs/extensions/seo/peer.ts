// A GraphQL request to another subgraph on behalf of the caller: the caller's identity signed
// as our router signs it (lib/identity.ts), so the owning subgraph applies its own permissions.
import { signIdentity } from "../../../lib/identity.ts";
import { subgraphSecretHeaders } from "../../../lib/subgraph-secret.ts";
import { subgraphUrl } from "../../../lib/subgraph-peers.ts";
import { IDENTITY_HEADER } from "../../../lib/identity.ts";
import { DomainError, errorStatus } from "../../../lib/errors.ts";
import type { ExtensionsContext } from "../context.ts";

export async function askSubgraphAs<T>(ctx: ExtensionsContext, name: "content", query: string, variables: Record<string, unknown>): Promise<T> {
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
  const body = (await response.json()) as { data?: T; errors?: { message: string; extensions?: { code?: string; status?: number; data?: Record<string, unknown> } }[] };
  const error = body.errors?.[0];
  if (error) throw new DomainError(error.extensions?.code ?? "rest_internal_error", error.message, errorStatus(error.extensions) ?? 500, { data: error.extensions?.data });
  return body.data as T;
}

