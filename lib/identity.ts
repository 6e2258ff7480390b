// The caller's identity, established once by the router and handed to the subgraphs as a
// short-lived signed header (HS256 JWT via `jose`). A subgraph trusts only a valid signature;
// a missing header means an anonymous caller.
import crypto from "node:crypto";
import { SignJWT, jwtVerify } from "jose";

export const IDENTITY_HEADER = "x-identity";

export interface SiteIdentity {
  userId: number;
  roles: string[];
  /** The uuid of the application password the caller signed in with (WordPress's introspect route). */
  appPassword?: string;
  /** OAuth 2.0 scopes when signed in with a bearer token: without `write`, only reading capabilities. */
  scope?: string[];
}
export interface GatewayIdentity {
  userId: number;
  username: string;
  roles: string[];
  /** The session the token names (logout revokes it). */
  sessionId?: string;
}

export interface Identity {
  /** A signed-in site user (application password). */
  site?: SiteIdentity;
  /** A signed-in email gateway user (X-ESG-Auth-Token). */
  gateway?: GatewayIdentity;
  /** The router itself, asking a subgraph to check credentials. */
  router?: boolean;
  /** The caller's address as the router saw it (credential checks count failures per client). */
  client?: string;
}

export const ANONYMOUS: Identity = Object.freeze({});

const TTL_SECONDS = 60;

/** Derives the signing key from the secret key so the two uses never share raw key material. */
function signingKey(secretKey: Buffer): Uint8Array {
  return crypto.createHmac("sha256", secretKey).update("identity-header-v1").digest();
}

export async function signIdentity(identity: Identity, secretKey: Buffer): Promise<string> {
  return new SignJWT({ id: identity })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt()
    .setExpirationTime(`${TTL_SECONDS}s`)
    .sign(signingKey(secretKey));
}

/** Returns the identity in a header value; throws when a header is present but not valid. */
export async function verifyIdentity(header: string | undefined, secretKey: Buffer): Promise<Identity> {
  if (!header) return ANONYMOUS;
  const { payload } = await jwtVerify(header, signingKey(secretKey), { algorithms: ["HS256"] });
  return (payload.id ?? {}) as Identity;
}
