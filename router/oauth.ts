// OAuth 2.0 authorization server (RFC 6749) at the addresses the REST index advertises
// (router/rest/site/discovery.ts): /oauth/authorize (consent page and decision, authorization code
// with PKCE S256 only), /oauth/token (authorization_code, refresh_token with rotation),
// /oauth/revoke (RFC 7009) and /oauth/me. The flows are written here over node:crypto rather
// than on @node-oauth/oauth2-server: that library wants Express-style request/response adapters
// and a model with direct database access, while here the content subgraph owns the tables and the
// router may reach them only through GraphQL (@inaccessible fields, subgraphs/content/users/oauth.ts).
import crypto from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../lib/config.ts";
import { DomainError, errorStatus } from "../lib/errors.ts";
import { askSubgraph, authenticate, readCredentials, type CredentialSubgraphs } from "../lib/authenticate.ts";
import type { Identity } from "../lib/identity.ts";

type Params = Record<string, string | undefined>;

interface OAuthClientInfo { clientId: string; name: string; redirectUris: string[] }
interface TokenGrant { accessToken: string; refreshToken: string; expiresIn: number; scope: string }

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The authorization request's parameters, as read from the query string (GET) or the form (POST). */
const AUTHORIZE_FIELDS = ["response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge", "code_challenge_method"] as const;

function redirectWith(reply: FastifyReply, redirectUri: string, params: Record<string, string | undefined>): FastifyReply {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return reply.header("cache-control", "no-store").redirect(url.toString(), 302);
}

const jsonError = (reply: FastifyReply, status: number, error: string, description: string): FastifyReply =>
  reply.status(status).header("cache-control", "no-store").send({ error, error_description: description });

export function registerOAuth(app: FastifyInstance, config: Config, subgraphs: CredentialSubgraphs): void {
  const ask = <T>(query: string, variables: Record<string, unknown>, requestId: string) =>
    askSubgraph<T>(subgraphs.content, query, variables, config.secretKey, requestId);

  // Binds the consent form to the approving user and the exact request it showed (a cross-site
  // POST cannot forge it: Basic credentials a browser resends would otherwise suffice).
  const consentMac = (userId: number, p: Params): string =>
    crypto.createHmac("sha256", config.secretKey).update(JSON.stringify(["oauth-consent-v1", userId, ...AUTHORIZE_FIELDS.map((f) => p[f] ?? "")])).digest("base64url");

  /**
   * Checks an authorization request in RFC 6749 §4.1.2.1's order: a bad client or redirect URI is
   * answered here (never redirected to an address we cannot trust); the rest redirects with the error.
   * Returns the client and approver, or null once it has answered.
   */
  async function checkAuthorize(request: FastifyRequest, reply: FastifyReply, p: Params): Promise<{ client: OAuthClientInfo; identity: Identity } | null> {
    const client = p.client_id
      ? (await ask<{ oauthClient: OAuthClientInfo | null }>("query($id: String!) { oauthClient(clientId: $id) { clientId name redirectUris } }", { id: p.client_id }, request.id)).oauthClient
      : null;
    if (!client) { jsonError(reply, 400, "invalid_client", "Unknown client_id."); return null; }
    if (!p.redirect_uri || !client.redirectUris.includes(p.redirect_uri)) { jsonError(reply, 400, "invalid_request", "redirect_uri is not registered for this client."); return null; }
    const fail = (error: string, description: string) => { redirectWith(reply, p.redirect_uri!, { error, error_description: description, state: p.state }); return null; };
    if (p.response_type !== "code") return fail("unsupported_response_type", "Only response_type=code is supported.");
    if (p.code_challenge_method !== "S256" || !p.code_challenge || !/^[A-Za-z0-9_-]{43}$/.test(p.code_challenge)) {
      return fail("invalid_request", "PKCE is required: code_challenge with code_challenge_method=S256.");
    }
    const scopes = (p.scope ?? "read").split(" ").filter(Boolean);
    if (!scopes.length || scopes.some((s) => s !== "read" && s !== "write")) return fail("invalid_scope", "Scopes are read and write.");
    const identity = await authenticate({ ...readCredentials(request.headers), ip: request.ip }, subgraphs, config.secretKey, request.id);
    if (!identity.site || identity.site.scope) {
      // Approval needs a signed-in user (an application password for now), not a token.
      reply.status(401).header("www-authenticate", 'Basic realm="oauth"').send({ error: "login_required", error_description: "Sign in as an administrator to approve applications." });
      return null;
    }
    if (!identity.site.roles.includes("administrator")) return fail("access_denied", "Only administrators may approve applications.");
    return { client, identity };
  }

  const pick = (source: unknown): Params => {
    const s = (source ?? {}) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(s).filter(([, v]) => typeof v === "string")) as Params;
  };

  app.register(async (scope) => {
    // RFC 6749 speaks application/x-www-form-urlencoded; JSON is accepted as well.
    scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    scope.get("/oauth/authorize", async (request, reply) => {
      const p = pick(request.query);
      const checked = await checkAuthorize(request, reply, p);
      if (!checked) return reply;
      const { client, identity } = checked;
      const hidden = [...AUTHORIZE_FIELDS.map((f) => [f, p[f] ?? ""] as const), ["consent", consentMac(identity.site!.userId, p)] as const]
        .map(([k, v]) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}">`).join("\n    ");
      const scopes = (p.scope ?? "read").split(" ").filter(Boolean);
      return reply.type("text/html; charset=utf-8").header("cache-control", "no-store").header("x-frame-options", "DENY").send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Authorize ${escapeHtml(client.name)}</title></head>
<body>
  <h1>Authorize ${escapeHtml(client.name)}</h1>
  <p>${escapeHtml(client.name)} asks to act as you on this site with: ${scopes.map((s) => `<strong>${s === "write" ? "write (your own capabilities)" : "read (reading as you)"}</strong>`).join(", ")}.</p>
  <p>It will be sent back to ${escapeHtml(p.redirect_uri!)}.</p>
  <form method="post" action="/oauth/authorize">
    ${hidden}
    <button type="submit" name="decision" value="approve">Approve</button>
    <button type="submit" name="decision" value="deny">Deny</button>
  </form>
</body></html>`);
    });

    scope.post("/oauth/authorize", async (request, reply) => {
      const p = pick(request.body);
      const checked = await checkAuthorize(request, reply, p);
      if (!checked) return reply;
      const { client, identity } = checked;
      const userId = identity.site!.userId;
      const expected = Buffer.from(consentMac(userId, p));
      const presented = Buffer.from(p.consent ?? "");
      if (expected.length !== presented.length || !crypto.timingSafeEqual(expected, presented)) {
        return redirectWith(reply, p.redirect_uri!, { error: "invalid_request", error_description: "The consent form was not the one shown.", state: p.state });
      }
      if (p.decision !== "approve") return redirectWith(reply, p.redirect_uri!, { error: "access_denied", state: p.state });
      const data = await ask<{ issueOAuthCode: string }>(
        "mutation($input: OAuthCodeInput!) { issueOAuthCode(input: $input) }",
        { input: { clientId: client.clientId, userId, redirectUri: p.redirect_uri, scope: p.scope ?? "read", codeChallenge: p.code_challenge } }, request.id);
      return redirectWith(reply, p.redirect_uri!, { code: data.issueOAuthCode, state: p.state });
    });

    /** Client credentials from HTTP Basic (client_secret_basic) or the body (client_secret_post). */
    const clientCredentials = (request: FastifyRequest, p: Params): { clientId: string; clientSecret: string } | null => {
      const basic = readCredentials(request.headers).basic;
      // RFC 6749 §2.3.1: both are form-encoded before Base64; a malformed escape is taken as sent.
      const decode = (v: string) => { try { return decodeURIComponent(v.replace(/\+/g, " ")); } catch { return v; } };
      if (basic) return { clientId: decode(basic.username), clientSecret: decode(basic.password) };
      return p.client_id && p.client_secret ? { clientId: p.client_id, clientSecret: p.client_secret } : null;
    };
    /** The subgraph's refusal as the token endpoint's JSON error (RFC 6749 §5.2). */
    const oauthFailure = (reply: FastifyReply, error: unknown): FastifyReply => {
      if (!(error instanceof DomainError)) throw error;
      const status = errorStatus(error.extensions) ?? 400;
      if (error.extensions.code === "invalid_client") reply.header("www-authenticate", 'Basic realm="oauth"');
      return jsonError(reply, status, String(error.extensions.code), error.message);
    };

    scope.post("/oauth/token", async (request, reply) => {
      const p = pick(request.body);
      const client = clientCredentials(request, p);
      if (!client) return jsonError(reply.header("www-authenticate", 'Basic realm="oauth"'), 401, "invalid_client", "Client authentication is required.");
      try {
        const data = await ask<{ grantOAuthTokens: TokenGrant }>(
          "mutation($input: OAuthTokenInput!) { grantOAuthTokens(input: $input) { accessToken refreshToken expiresIn scope } }",
          { input: { grantType: p.grant_type ?? "", ...client, code: p.code ?? null, redirectUri: p.redirect_uri ?? null, codeVerifier: p.code_verifier ?? null, refreshToken: p.refresh_token ?? null } },
          request.id);
        const g = data.grantOAuthTokens;
        return reply.header("cache-control", "no-store").header("pragma", "no-cache")
          .send({ access_token: g.accessToken, token_type: "Bearer", expires_in: g.expiresIn, refresh_token: g.refreshToken, scope: g.scope });
      } catch (error) {
        return oauthFailure(reply, error);
      }
    });

    scope.post("/oauth/revoke", async (request, reply) => {
      const p = pick(request.body);
      const client = clientCredentials(request, p);
      if (!client) return jsonError(reply.header("www-authenticate", 'Basic realm="oauth"'), 401, "invalid_client", "Client authentication is required.");
      if (!p.token) return jsonError(reply, 400, "invalid_request", "token is required.");
      try {
        await ask("mutation($clientId: String!, $clientSecret: String!, $token: String!) { revokeOAuthToken(clientId: $clientId, clientSecret: $clientSecret, token: $token) }",
          { ...client, token: p.token }, request.id);
        return reply.status(200).send();
      } catch (error) {
        return oauthFailure(reply, error);
      }
    });

    // Who the bearer token stands for.
    scope.get("/oauth/me", async (request, reply) => {
      const credentials = readCredentials(request.headers);
      if (!credentials.bearer) return reply.status(401).header("www-authenticate", 'Bearer realm="oauth"').send({ error: "invalid_token", error_description: "A bearer token is required." });
      try {
        const identity = await authenticate({ bearer: credentials.bearer }, subgraphs, config.secretKey, request.id);
        return reply.header("cache-control", "no-store").send({ id: identity.site!.userId, roles: identity.site!.roles, scope: identity.site!.scope!.join(" ") });
      } catch (error) {
        if (error instanceof DomainError && errorStatus(error.extensions) === 401) {
          return reply.status(401).header("www-authenticate", 'Bearer realm="oauth", error="invalid_token"').send({ error: "invalid_token", error_description: error.message });
        }
        throw error;
      }
    });
  });
}
