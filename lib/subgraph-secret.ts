// An optional shared secret between routers and subgraphs (SUBGRAPH_SECRET): when set, a
// subgraph answers only requests that carry it, so a subgraph reachable on the network still
// serves no one but a router configured with the secret (ours, Hive Gateway, Apollo Router).
import crypto from "node:crypto";

export const SUBGRAPH_SECRET_HEADER = "x-subgraph-secret";

/** The header a router sends to subgraphs (none when no secret is configured). */
export const subgraphSecretHeaders = (secret: string | undefined): Record<string, string> =>
  (secret ? { [SUBGRAPH_SECRET_HEADER]: secret } : {});

/** Whether a presented value is the secret, compared in constant time. */
export function isSubgraphSecret(presented: string | string[] | undefined, secret: string): boolean {
  const value = Array.isArray(presented) ? presented[0] : presented;
  if (typeof value !== "string") return false;
  const digest = (s: string) => crypto.createHash("sha256").update(s).digest();
  return crypto.timingSafeEqual(digest(value), digest(secret));
}
