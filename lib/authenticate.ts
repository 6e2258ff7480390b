// Credentials → Identity: the caller's credentials checked by the subgraph that owns those users
// (content for site users, gateway for email gateway users) through an @inaccessible field that
// only a router-signed request may call. Our router runs it once at the edge; a subgraph reached
// through another router (Hive Gateway, Apollo Router) runs it on the forwarded credentials.
import { signIdentity, type Identity } from "./identity.ts";
import { IDENTITY_HEADER } from "./identity.ts";
import { REQUEST_ID_HEADER } from "./logging.ts";
import { subgraphSecretHeaders } from "./subgraph-secret.ts";
import { DomainError, errorStatus } from "./errors.ts";
import type { FormattedExecutionResult } from "graphql";
import type { LocalSubgraph } from "./local-subgraph.ts";

export interface Credentials {
  /** `Authorization: Basic …` (WordPress application password). */
  basic?: { username: string; password: string };
  /** `Authorization: Bearer …` (an OAuth 2.0 access token, router/oauth.ts). */
  bearer?: string;
  /** `X-ESG-Auth-Token` (email gateway session token). */
  gatewayToken?: string;
  /** `X-Switch-User`: the gateway user an API user acts as (email-gateway-api.md §2). */
  switchUser?: string;
  /** The caller's address, recorded as the application password's last_ip. */
  ip?: string;
}

/** The request headers that carry a caller's credentials (readCredentials reads these and no others). */
export const CREDENTIAL_HEADERS = ["authorization", "x-esg-auth-token", "x-switch-user"] as const;

export function readCredentials(headers: Record<string, string | string[] | undefined>): Credentials {
  const first = (name: string) => { const v = headers[name]; return Array.isArray(v) ? v[0] : v; };
  const credentials: Credentials = {};
  const authorization = first("authorization");
  const match = authorization?.match(/^Basic\s+([A-Za-z0-9+/=]+)\s*$/i);
  if (match) {
    const decoded = Buffer.from(match[1], "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon > 0) credentials.basic = { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  const bearer = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  if (bearer) credentials.bearer = bearer[1];
  const token = first("x-esg-auth-token");
  if (token) credentials.gatewayToken = token;
  const switchUser = first("x-switch-user");
  if (token && switchUser) credentials.switchUser = switchUser;
  return credentials;
}

/**
 * A subgraph asked as the router: its URL, the shared secret it may require, and, when it runs in
 * the caller's own process, the way in without HTTP, JSON or signing.
 */
export interface SubgraphTarget { url: string; secret?: string; local?: LocalSubgraph }

/** Where the credential checks go: the subgraphs that own site users and gateway users. */
export interface CredentialSubgraphs { content: SubgraphTarget; gateway: SubgraphTarget }

/**
 * An operation asked as the router: in-process when the subgraph runs here, else a router-signed
 * HTTP request. A GraphQL error comes back as the DomainError it names.
 */
export async function askSubgraph<T>(to: SubgraphTarget, query: string, variables: Record<string, unknown>, secretKey: Buffer, requestId?: string): Promise<T> {
  if (to.local?.serving) return answerOf<T>(await to.local.execute({ query, variables }, { router: true }, requestId));
  const response = await fetch(to.url, {
    method: "POST",
    headers: {
      "content-type": "application/json", [IDENTITY_HEADER]: await signIdentity({ router: true }, secretKey),
      ...(requestId ? { [REQUEST_ID_HEADER]: requestId } : {}),
      ...subgraphSecretHeaders(to.secret),
    },
    body: JSON.stringify({ query, variables }),
  });
  return answerOf<T>((await response.json()) as FormattedExecutionResult);
}

function answerOf<T>(result: FormattedExecutionResult): T {
  const error = result.errors?.[0] as { message: string; extensions?: { code?: string; status?: number; data?: Record<string, unknown> } } | undefined;
  if (error) {
    throw new DomainError(error.extensions?.code ?? "internal_server_error", error.message, errorStatus(error.extensions) ?? 500, { data: error.extensions?.data });
  }
  return result.data as T;
}

/**
 * Returns the caller's identity; no credentials is the anonymous caller. A Basic credential that
 * is not a valid application password leaves the caller anonymous, as the recorded WordPress
 * answers it (GET of a public post with a wrong application password: 200, `Allow: GET`); what
 * the route then needs (401 rest_cannot_create…) follows from being anonymous. A bad email
 * gateway token is an error, as the gateway answers it.
 */
export async function authenticate(credentials: Credentials, subgraphs: CredentialSubgraphs, secretKey: Buffer, requestId?: string): Promise<Identity> {
  const identity: Identity = credentials.ip ? { client: credentials.ip } : {};
  if (credentials.basic) {
    try {
      const data = await askSubgraph<{ authenticateApplicationPassword: { userId: number; roles: string[]; appPassword: string | null } }>(
        subgraphs.content,
        "query($username: String!, $password: String!, $ip: String) { authenticateApplicationPassword(username: $username, password: $password, ip: $ip) { userId roles appPassword } }",
        { ...credentials.basic, ip: credentials.ip ?? null }, secretKey, requestId);
      const { userId, roles, appPassword } = data.authenticateApplicationPassword;
      identity.site = { userId, roles, ...(appPassword ? { appPassword } : {}) };
    } catch (error) {
      if (!(error instanceof DomainError && errorStatus(error.extensions) === 401)) throw error;
    }
  }
  if (credentials.bearer) {
    // Unlike a wrong application password, a bad bearer token is refused (RFC 6750 invalid_token):
    // the client holds it from our own token endpoint, so it has expired or been revoked.
    const data = await askSubgraph<{ authenticateOAuthToken: { userId: number; roles: string[]; scope: string } }>(
      subgraphs.content, "query($token: String!) { authenticateOAuthToken(token: $token) { userId roles scope } }",
      { token: credentials.bearer }, secretKey, requestId);
    const { userId, roles, scope } = data.authenticateOAuthToken;
    identity.site = { userId, roles, scope: scope.split(" ") };
  }
  if (credentials.gatewayToken) {
    const data = await askSubgraph<{ authenticateGatewayToken: { userId: number; username: string; roles: string[]; sessionId: string } }>(
      subgraphs.gateway,
      "query($token: String!, $switchUser: String) { authenticateGatewayToken(token: $token, switchUser: $switchUser) { userId username roles sessionId } }",
      { token: credentials.gatewayToken, switchUser: credentials.switchUser ?? null }, secretKey, requestId);
    identity.gateway = data.authenticateGatewayToken;
  }
  return identity;
}
