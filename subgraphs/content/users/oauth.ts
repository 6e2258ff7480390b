// OAuth 2.0 (RFC 6749) for site users, the tables' owner's half: clients an administrator
// registers, authorization codes bound to a PKCE S256 challenge (RFC 7636), access and refresh
// tokens with rotation, and revocation (RFC 7009). Secrets, codes and tokens are high-entropy and
// kept only as HMAC-SHA-256 keyed with the secret key, as application passwords are. The router
// speaks the HTTP protocol (router/oauth.ts) and calls these through @inaccessible fields.
import crypto from "node:crypto";
import { fail } from "../../../lib/errors.ts";
import type { ContentContext } from "../context.ts";

export const ACCESS_TOKEN_SECONDS = 60 * 60;
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 60 * 60;
const CODE_SECONDS = 10 * 60;
/** `read`: reading as the user; `write`: the user's own capabilities. */
export const OAUTH_SCOPES = ["read", "write"] as const;

type Store = Pick<ContentContext, "prisma" | "config">;

const keyedHash = (secret: string, secretKey: Buffer): string => crypto.createHmac("sha256", secretKey).update(secret).digest("hex");
const randomSecret = (): string => crypto.randomBytes(32).toString("base64url");
const later = (now: Date, seconds: number): Date => new Date(now.getTime() + seconds * 1000);
const sameHash = (a: string, b: string): boolean => a.length === b.length && crypto.timingSafeEqual(Buffer.from(a, "hex"), Buffer.from(b, "hex"));

/** Normalizes a requested scope: known names, deduplicated; empty means `read`. */
export function parseScope(scope: string | null | undefined): string | null {
  const names = [...new Set((scope ?? "").split(" ").filter(Boolean))];
  if (!names.length) return "read";
  return names.every((n) => (OAUTH_SCOPES as readonly string[]).includes(n)) ? OAUTH_SCOPES.filter((s) => names.includes(s)).join(" ") : null;
}

/** Registers a client; the secret is returned this once. */
export async function createOAuthClient(store: Store, input: { name: string; redirectUris: string[] }): Promise<{ clientId: string; clientSecret: string }> {
  for (const uri of input.redirectUris) {
    const url = URL.canParse(uri) ? new URL(uri) : null;
    if (!url || url.hash || !["https:", "http:"].includes(url.protocol)) throw new Error(`Not an absolute http(s) redirect URI without a fragment: ${uri}`);
  }
  if (!input.redirectUris.length) throw new Error("A client needs at least one redirect URI.");
  const clientId = crypto.randomUUID();
  const clientSecret = randomSecret();
  await store.prisma.oAuthClient.create({ data: { id: clientId, name: input.name, redirectUris: input.redirectUris, secretHash: keyedHash(clientSecret, store.config.secretKey) } });
  return { clientId, clientSecret };
}

/** A client's public facts, for the consent page; null when unknown. Only the router may ask. */
export async function readOAuthClient(ctx: ContentContext, clientId: string): Promise<{ clientId: string; name: string; redirectUris: string[] } | null> {
  if (!ctx.identity.router) fail("forbidden");
  const client = await ctx.prisma.oAuthClient.findUnique({ where: { id: clientId } });
  return client ? { clientId: client.id, name: client.name, redirectUris: client.redirectUris } : null;
}

/** Issues a code for a user who approved; the router has checked the user and the redirect URI. */
export async function issueAuthorizationCode(ctx: ContentContext, input: { clientId: string; userId: number; redirectUri: string; scope: string; codeChallenge: string }): Promise<string> {
  if (!ctx.identity.router) fail("forbidden");
  const client = await ctx.prisma.oAuthClient.findUnique({ where: { id: input.clientId } });
  if (!client || !client.redirectUris.includes(input.redirectUri)) fail("invalid_client");
  const scope = parseScope(input.scope);
  if (!scope) fail("invalid_scope");
  if (!/^[A-Za-z0-9_-]{43}$/.test(input.codeChallenge)) fail("invalid_request");
  const code = randomSecret();
  await ctx.prisma.oAuthAuthorizationCode.create({
    data: { codeHash: keyedHash(code, ctx.config.secretKey), clientId: client.id, userId: input.userId, redirectUri: input.redirectUri, scope, codeChallenge: input.codeChallenge, expiresAt: later(new Date(), CODE_SECONDS) },
  });
  return code;
}

export interface TokenRequest {
  grantType: string;
  clientId: string;
  clientSecret: string;
  code?: string | null;
  redirectUri?: string | null;
  codeVerifier?: string | null;
  refreshToken?: string | null;
}
export interface TokenGrant { accessToken: string; refreshToken: string; expiresIn: number; scope: string }

async function authenticateClient(ctx: ContentContext, clientId: string, clientSecret: string) {
  const client = await ctx.prisma.oAuthClient.findUnique({ where: { id: clientId } });
  // The hash is computed either way, so an unknown client costs what a wrong secret does.
  const presented = keyedHash(clientSecret, ctx.config.secretKey);
  if (!client || !sameHash(client.secretHash, presented)) return fail("invalid_client");
  return client;
}

async function issueTokens(ctx: ContentContext, clientId: string, userId: number, scope: string): Promise<TokenGrant> {
  const now = new Date();
  const accessToken = randomSecret();
  const refreshToken = randomSecret();
  await ctx.prisma.oAuthToken.createMany({
    data: [
      { tokenHash: keyedHash(accessToken, ctx.config.secretKey), kind: "access", clientId, userId, scope, expiresAt: later(now, ACCESS_TOKEN_SECONDS) },
      { tokenHash: keyedHash(refreshToken, ctx.config.secretKey), kind: "refresh", clientId, userId, scope, expiresAt: later(now, REFRESH_TOKEN_SECONDS) },
    ],
  });
  return { accessToken, refreshToken, expiresIn: ACCESS_TOKEN_SECONDS, scope };
}

/** The token endpoint: authorization_code (with its PKCE verifier) or refresh_token (rotating). */
export async function grantTokens(ctx: ContentContext, request: TokenRequest): Promise<TokenGrant> {
  if (!ctx.identity.router) fail("forbidden");
  const client = await authenticateClient(ctx, request.clientId, request.clientSecret);
  const now = new Date();
  if (request.grantType === "authorization_code") {
    if (!request.code || !request.codeVerifier || !request.redirectUri) return fail("invalid_request");
    const codeHash = keyedHash(request.code, ctx.config.secretKey);
    const row = await ctx.prisma.oAuthAuthorizationCode.findUnique({ where: { codeHash } });
    if (!row) return fail("invalid_grant");
    // Deleted on first use whatever follows (deleteMany: a concurrent exchange finds it gone): one attempt per code.
    const { count } = await ctx.prisma.oAuthAuthorizationCode.deleteMany({ where: { codeHash } });
    const challenge = crypto.createHash("sha256").update(request.codeVerifier).digest("base64url");
    if (!count || row.clientId !== client.id || row.expiresAt <= now || row.redirectUri !== request.redirectUri || challenge !== row.codeChallenge) return fail("invalid_grant");
    return issueTokens(ctx, client.id, row.userId, row.scope);
  }
  if (request.grantType === "refresh_token") {
    if (!request.refreshToken) return fail("invalid_request");
    const tokenHash = keyedHash(request.refreshToken, ctx.config.secretKey);
    const row = await ctx.prisma.oAuthToken.findUnique({ where: { tokenHash } });
    if (!row || row.kind !== "refresh" || row.clientId !== client.id) return fail("invalid_grant");
    // Rotation: the presented refresh token stops working the moment it is used.
    const { count } = await ctx.prisma.oAuthToken.deleteMany({ where: { tokenHash } });
    if (!count || row.expiresAt <= now) return fail("invalid_grant");
    return issueTokens(ctx, client.id, row.userId, row.scope);
  }
  return fail("unsupported_grant_type");
}

/** RFC 7009: revokes an access or refresh token of the authenticated client; unknown tokens are not an error. */
export async function revokeOAuthToken(ctx: ContentContext, clientId: string, clientSecret: string, token: string): Promise<boolean> {
  if (!ctx.identity.router) fail("forbidden");
  const client = await authenticateClient(ctx, clientId, clientSecret);
  await ctx.prisma.oAuthToken.deleteMany({ where: { tokenHash: keyedHash(token, ctx.config.secretKey), clientId: client.id } });
  return true;
}

/** A bearer access token → the site identity it stands for; only the router may ask. */
export async function authenticateOAuthToken(ctx: ContentContext, token: string): Promise<{ userId: number; roles: string[]; scope: string }> {
  if (!ctx.identity.router) fail("forbidden");
  const row = await ctx.prisma.oAuthToken.findUnique({ where: { tokenHash: keyedHash(token, ctx.config.secretKey) }, include: { user: true } });
  if (!row || row.kind !== "access" || row.expiresAt <= new Date()) return fail("invalid_token");
  return { userId: row.userId, roles: row.user.roles, scope: row.scope };
}
