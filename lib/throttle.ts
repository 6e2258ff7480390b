// Brute-force protection for credential checks: failed attempts are counted per key (a client
// address, an account) in a sliding window; past the limit the key is refused until its oldest
// counted failure leaves the window, and the caller is told when to retry. Refusals are decided
// before any password hash is computed, so a flood costs nothing but a map lookup. Counts live
// in the process that checks the credentials (each subgraph replica counts its own share).

export interface ThrottleRule {
  /** Failed attempts allowed per key within the window. */
  limit: number;
  windowMs: number;
}

export class Throttle {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly rule: ThrottleRule, private readonly now: () => number = Date.now) {}

  /** Seconds until `keys` may try again; 0 when none of them is over its limit. */
  retryAfter(keys: readonly string[]): number {
    const now = this.now();
    let wait = 0;
    for (const key of keys) {
      const recent = this.recent(key, now);
      if (recent.length >= this.rule.limit) wait = Math.max(wait, recent[recent.length - this.rule.limit] + this.rule.windowMs - now);
    }
    return Math.ceil(wait / 1000);
  }

  /** Counts a failed attempt against every key. */
  fail(keys: readonly string[]): void {
    const now = this.now();
    for (const key of keys) this.failures.set(key, [...this.recent(key, now), now]);
    if (this.failures.size > 100_000) this.sweep(now);
  }

  /** Forgets a key's failures (a success for an account clears its count). */
  forget(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((at) => at > now - this.rule.windowMs);
  }

  private sweep(now: number): void {
    for (const key of this.failures.keys()) if (this.recent(key, now).length === 0) this.failures.delete(key);
  }
}

/** Credential checks: 10 failures per account or per client within 15 minutes. */
export const CREDENTIAL_THROTTLE: ThrottleRule = { limit: 10, windowMs: 15 * 60 * 1000 };

/** The keys a credential check is counted under. */
export const credentialKeys = (scope: string, account: string, client: string | undefined): string[] =>
  [`${scope}:account:${account.toLowerCase()}`, ...(client ? [`${scope}:client:${client}`] : [])];
