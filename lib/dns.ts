// The DNS lookups the email gateway makes (domain summary: MX, SPF, DKIM, DMARC), behind one
// injectable resolver: the system's by default (DNS_SERVERS, comma-separated, overrides the
// servers), a fake one in tests (`useDnsResolver`), so no test needs the internet.
import dns from "node:dns";

export interface MxRecord { exchange: string; priority: number }

export interface DnsResolver {
  resolveMx(name: string): Promise<MxRecord[]>;
  /** TXT records, each as its character strings (joined by the caller). */
  resolveTxt(name: string): Promise<string[][]>;
}

/** "No such name" and "no records of this type" are empty answers, not failures. */
const EMPTY = new Set(["ENOTFOUND", "ENODATA", "NXDOMAIN", "ENONAME"]);

function systemResolver(): DnsResolver {
  const resolver = new dns.promises.Resolver({ timeout: 3000, tries: 2 });
  const servers = process.env.DNS_SERVERS?.split(",").map((s) => s.trim()).filter(Boolean);
  if (servers?.length) resolver.setServers(servers);
  const empty = <T>(error: unknown): T[] => {
    if (EMPTY.has((error as { code?: string }).code ?? "")) return [];
    throw error;
  };
  return {
    resolveMx: (name) => resolver.resolveMx(name).catch((e: unknown) => empty<MxRecord>(e)),
    resolveTxt: (name) => resolver.resolveTxt(name).catch((e: unknown) => empty<string[]>(e)),
  };
}

let current: DnsResolver | undefined;

export const dnsResolver = (): DnsResolver => (current ??= systemResolver());

/** Replaces the resolver (tests: a fake); returns a function that puts the previous one back. */
export function useDnsResolver(resolver: DnsResolver): () => void {
  const previous = current;
  current = resolver;
  return () => { current = previous; };
}
