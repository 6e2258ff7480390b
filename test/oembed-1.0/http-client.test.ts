// lib/http-client.ts, the one outbound client (oEmbed, URL details): WordPress's safe-request rules
// against a local server, with the name resolution injected where a public address is needed.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createHttpClient, HttpRequestError, isPublicAddress } from "../../lib/http-client.ts";

let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === "/hop") { res.writeHead(302, { location: "/end" }); return res.end(); }
    if (req.url === "/to-localhost") { res.writeHead(302, { location: `http://localhost:${(server.address() as AddressInfo).port}/end` }); return res.end(); }
    if (req.url === "/loop") { res.writeHead(302, { location: "/loop" }); return res.end(); }
    if (req.url === "/slow") { setTimeout(() => res.end("late"), 2000); return; }
    if (req.url === "/big") return res.end("x".repeat(100_000));
    res.end(`hello ${req.url} ${req.headers["user-agent"]}`);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => { server.close(); });

const reason = (p: Promise<unknown>) => p.then(() => "reached", (e: unknown) => (e instanceof HttpRequestError ? e.reason : String(e)));

describe("outbound HTTP client", () => {
  test("an allowed host is reached; redirects are followed; the answer says where it ended", async () => {
    const client = createHttpClient({ allowedHosts: ["127.0.0.1"], userAgent: "Test/1" });
    const r = await client.request(`${base}/hop`);
    expect([r.status, r.text(), r.url]).toEqual([200, "hello /end Test/1", `${base}/end`]);
  });

  test("loopback, private, link-local and unique-local addresses are refused when not allowed, before any request", async () => {
    const client = createHttpClient();
    for (const url of [`${base}/`, "http://localhost/", "http://10.1.2.3/", "http://192.168.0.1/", "http://169.254.169.254/latest/meta-data", "http://[::1]/", "http://[fd00::1]/", "http://100.64.0.1/"]) {
      expect(await reason(client.request(url)), url).toBe("unsafe_url");
    }
  });

  test("a name that resolves to a private address is refused (no second look-up can change it)", async () => {
    const client = createHttpClient({ lookup: async () => [{ address: "10.0.0.5", family: 4 }] });
    expect(await reason(client.request("http://intranet.example/"))).toBe("unsafe_url");
  });

  test("only ports 80, 443 and 8080 for hosts not allowed; only http and https; no credentials in the address", async () => {
    const client = createHttpClient({ lookup: async () => [{ address: "93.184.216.34", family: 4 }] });
    expect(await reason(client.request("http://public.example:1234/"))).toBe("unsafe_url");
    expect(await reason(client.request("ftp://public.example/"))).toBe("invalid_url");
    expect(await reason(client.request("file:///etc/passwd"))).toBe("invalid_url");
    expect(await reason(client.request("http://user:pw@public.example/"))).toBe("invalid_url");
  });

  test("each redirect hop is checked again: a redirect to localhost is refused", async () => {
    const client = createHttpClient({ allowedHosts: ["127.0.0.1"] });
    expect(await reason(client.request(`${base}/to-localhost`))).toBe("unsafe_url");
    expect(await reason(client.request(`${base}/loop`))).toBe("too_many_redirects");
    expect((await client.request(`${base}/hop`, { redirects: 0 })).status).toBe(302);
  });

  test("bodies are cut at maxBytes and slow answers time out", async () => {
    const client = createHttpClient({ allowedHosts: ["127.0.0.1"] });
    const r = await client.request(`${base}/big`, { maxBytes: 1000 });
    expect([r.body.length, r.truncated]).toEqual([1000, true]);
    expect(await reason(client.request(`${base}/slow`, { timeoutMs: 200 }))).toBe("timeout");
  });

  test("isPublicAddress", () => {
    expect(["8.8.8.8", "2001:4860:4860::8888", "93.184.216.34"].map(isPublicAddress)).toEqual([true, true, true]);
    expect(["127.0.0.1", "0.0.0.0", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "224.0.0.1", "fe80::1", "203.0.113.7", "not-an-ip"].map(isPublicAddress)).toEqual([false, false, false, false, false, false, false, false]);
  });
});

test("a resolver that never answers counts against the timeout", async () => {
  const client = createHttpClient({ lookup: () => new Promise(() => {}) });
  const started = Date.now();
  expect(await reason(client.request("http://stuck.example/", { timeoutMs: 150 }))).toBe("timeout");
  expect(Date.now() - started).toBeLessThan(1000);
});
