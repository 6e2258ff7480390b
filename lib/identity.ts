// The caller's identity, established once by the router and handed to the subgraphs as a
// short-lived signed header (HS256 JWT via `jose`). A subgraph trusts only a valid signature;
// a missing header means an anonymous caller. Both ends keep what they computed for a while: the
// router signs one token per distinct identity, a subgraph verifies a given token once.
import crypto from "node:crypto";
import { SignJWT, jwtVerify } from "jose";
import { LRUCache } from "lru-cache";

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
/** A signed token is reused while it has this much of its lifetime left, so it never expires in transit. */
const REUSE_LEFT_SECONDS = 30;
const CACHED_IDENTITIES = 1000;

/** What one secret key has signed and verified lately, with each token's expiry (seconds since the epoch). */
interface KeyCaches {
  key: Uint8Array;
  signed: LRUCache<string, { token: string; expires: number }>;
  verified: LRUCache<string, { identity: Identity; expires: number }>;
}

const nowSeconds = () => Date.now() / 1000;

const caches = new WeakMap<Buffer, KeyCaches>();

/** The signing key (derived from the secret key, so the two uses never share raw key material) and its caches. */
function cachesOf(secretKey: Buffer): KeyCaches {
  let found = caches.get(secretKey);
  if (!found) {
    found = {
      key: crypto.createHmac("sha256", secretKey).update("identity-header-v1").digest(),
      signed: new LRUCache({ max: CACHED_IDENTITIES }),
      verified: new LRUCache({ max: CACHED_IDENTITIES }),
    };
    caches.set(secretKey, found);
  }
  return found;
}

export async function signIdentity(identity: Identity, secretKey: Buffer): Promise<string> {
  const { key, signed } = cachesOf(secretKey);
  const claims = JSON.stringify(identity);
  const known = signed.get(claims);
  if (known && known.expires - nowSeconds() > REUSE_LEFT_SECONDS) return known.token;
  const issued = Math.floor(nowSeconds());
  const token = await new SignJWT({ id: identity })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt(issued)
    .setExpirationTime(issued + TTL_SECONDS)
    .sign(key);
  signed.set(claims, { token, expires: issued + TTL_SECONDS });
  return token;
}

/** Returns the identity in a header value; throws when a header is present but not valid. */
export async function verifyIdentity(header: string | undefined, secretKey: Buffer): Promise<Identity> {
  if (!header) return ANONYMOUS;
  const { key, verified } = cachesOf(secretKey);
  const known = verified.get(header);
  // A token verified before is only checked for expiry again (forged ones never get in).
  if (known && known.expires > nowSeconds()) return known.identity;
  const { payload } = await jwtVerify(header, key, { algorithms: ["HS256"] });
  const identity = (payload.id ?? {}) as Identity;
  if (payload.exp !== undefined) verified.set(header, { identity, expires: payload.exp });
  return identity;
}
