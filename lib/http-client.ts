// The one way this system reaches other web servers (oEmbed providers and discovery, URL
// previews, site-health probes): WordPress's wp_safe_remote_get rules in one injectable client.
//
// - Only http and https; only ports 80, 443 and 8080 (wp_http_validate_url), except for hosts
//   named in HTTP_ALLOWED_HOSTS (WordPress's http_request_host_is_external filter).
// - The host is resolved once per hop and the connection is made to that address (no second
//   look-up an attacker's DNS could answer differently); loopback, private, link-local,
//   unique-local, carrier-grade NAT, multicast and reserved addresses are refused unless the
//   host is allowed, so a caller cannot make the server reach its own network.
// - Redirects are followed (5 at most, each hop checked again); bodies are cut at `maxBytes`
//   (WordPress's limit_response_size truncates rather than failing); every request times out.
//
// Domain functions take an `HttpClient`; tests hand them a client allowed to reach 127.0.0.1,
// where a fake server answers, or a plain object implementing the interface.
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

export interface HttpRequestOptions {
  method?: "GET" | "HEAD" | "POST";
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Give up after this long (WordPress's default is 5 s). */
  timeoutMs?: number;
  /** Keep at most this many bytes of the body (the rest is not read). */
  maxBytes?: number;
  /** Redirects to follow (WordPress's `redirection`, default 5); 0 answers the redirect itself. */
  redirects?: number;
}

export interface HttpResponse {
  status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  /** The address that answered (after redirects). */
  url: string;
  /** Whether the body was cut at `maxBytes`. */
  truncated: boolean;
  text(): string;
}

export interface HttpClient {
  request(url: string, options?: HttpRequestOptions): Promise<HttpResponse>;
}

/** Why a request got no answer: WordPress reports all of these as `http_request_failed`. */
export type HttpFailure = "invalid_url" | "unsafe_url" | "timeout" | "network" | "too_many_redirects";

export class HttpRequestError extends Error {
  readonly code = "http_request_failed";
  constructor(readonly reason: HttpFailure, message: string) {
    super(message);
    this.name = "HttpRequestError";
  }
}

export interface HttpClientOptions {
  /** Host names (or literal addresses) that may be reached whatever their address and port. */
  allowedHosts?: readonly string[];
  userAgent?: string;
  timeoutMs?: number;
  /** Name resolution (injectable for tests); defaults to the system resolver. */
  lookup?: (hostname: string) => Promise<{ address: string; family: number }[]>;
}

const SAFE_PORTS = new Set([80, 443, 8080]);
/** ipaddr.js ranges that are the public internet. */
const PUBLIC_RANGES = new Set(["unicast"]);

/** Whether an address is on the public internet (not this machine or a private network). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return PUBLIC_RANGES.has(parsed.range());
}

const systemLookup = async (hostname: string) => dns.promises.lookup(hostname, { all: true, verbatim: true });

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new HttpRequestError("invalid_url", "A valid URL was not provided.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new HttpRequestError("invalid_url", "A valid URL was not provided.");
  if (url.username || url.password) throw new HttpRequestError("invalid_url", "A valid URL was not provided.");
  return url;
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const allowed = new Set((options.allowedHosts ?? []).map((h) => h.toLowerCase().replace(/^\[|\]$/g, "")));
  const lookupAll = options.lookup ?? systemLookup;
  const userAgent = options.userAgent ?? "WordPress-compatible site (+https://wordpress.org/)";

  /** The address to connect to for a URL, or a refusal when the URL is not safe to reach. */
  async function resolve(url: URL, deadline: number): Promise<{ address: string; family: number }> {
    const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
    const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
    const isAllowed = allowed.has(host);
    if (!isAllowed && !SAFE_PORTS.has(port)) throw new HttpRequestError("unsafe_url", "A valid URL was not provided.");
    let addresses: { address: string; family: number }[];
    if (ipaddr.isValid(host)) addresses = [{ address: host, family: host.includes(":") ? 6 : 4 }];
    else {
      try {
        // A resolver that does not answer counts against the request's time like the rest of it.
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new HttpRequestError("timeout", "Resolving the host timed out")), Math.max(1, deadline - Date.now()));
        });
        try {
          addresses = await Promise.race([lookupAll(host), late]);
        } finally {
          clearTimeout(timer);
        }
      } catch (error) {
        if (error instanceof HttpRequestError) throw error;
        throw new HttpRequestError("network", `Could not resolve host: ${host}`);
      }
    }
    if (addresses.length === 0) throw new HttpRequestError("network", `Could not resolve host: ${host}`);
    if (!isAllowed && !addresses.every((a) => isPublicAddress(a.address))) throw new HttpRequestError("unsafe_url", "A valid URL was not provided.");
    return addresses[0];
  }

  function once(url: URL, target: { address: string; family: number }, o: HttpRequestOptions, deadline: number): Promise<HttpResponse> {
    return new Promise((done, fail) => {
      const pinned: LookupFunction = (_hostname, opts, callback) => {
        if ((opts as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
        else callback(null, target.address, target.family);
      };
      const transport = url.protocol === "https:" ? https : http;
      const remaining = Math.max(1, deadline - Date.now());
      const req = transport.request(url, {
        method: o.method ?? "GET",
        headers: { "user-agent": userAgent, "accept-encoding": "identity", ...lowerKeys(o.headers ?? {}) },
        lookup: pinned,
        timeout: remaining,
      }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        const max = o.maxBytes ?? Infinity;
        const finish = () => {
          clearTimeout(timer);
          const body = Buffer.concat(chunks);
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
          done({ status: res.statusCode ?? 0, headers, body, url: url.toString(), truncated, text: () => body.toString("utf8") });
        };
        res.on("data", (chunk: Buffer) => {
          if (truncated) return;
          if (size + chunk.length > max) {
            chunks.push(chunk.subarray(0, max - size));
            size = max;
            truncated = true;
            finish();
            res.destroy();
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        res.on("end", () => { if (!truncated) finish(); });
        res.on("error", (e) => { if (!truncated) fail(new HttpRequestError("network", e.message)); });
      });
      const timer = setTimeout(() => req.destroy(new HttpRequestError("timeout", `Operation timed out after ${o.timeoutMs ?? options.timeoutMs ?? 5000} milliseconds`)), remaining);
      req.on("timeout", () => req.destroy(new HttpRequestError("timeout", `Operation timed out after ${o.timeoutMs ?? options.timeoutMs ?? 5000} milliseconds`)));
      req.on("error", (e) => {
        clearTimeout(timer);
        fail(e instanceof HttpRequestError ? e : new HttpRequestError("network", e.message));
      });
      req.end(o.body);
    });
  }

  return {
    async request(raw, o = {}) {
      const deadline = Date.now() + (o.timeoutMs ?? options.timeoutMs ?? 5000);
      let url = parseUrl(raw);
      let hops = o.redirects ?? 5;
      for (;;) {
        const target = await resolve(url, deadline);
        const response = await once(url, target, o, deadline);
        const location = response.headers.location;
        if (response.status >= 300 && response.status < 400 && location && o.method !== "POST") {
          if (hops === 0) {
            if ((o.redirects ?? 5) === 0) return response;
            throw new HttpRequestError("too_many_redirects", "Too many redirects.");
          }
          hops--;
          url = parseUrl(new URL(location, url).toString());
          continue;
        }
        return response;
      }
    },
  };
}

const lowerKeys = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

/** One client per configuration (its allowed hosts), shared by every request of a process. */
const clients = new WeakMap<object, HttpClient>();
export function httpClientFor(config: { httpAllowedHosts?: readonly string[] }): HttpClient {
  let client = clients.get(config);
  if (!client) clients.set(config, (client = createHttpClient({ allowedHosts: config.httpAllowedHosts ?? [] })));
  return client;
}
