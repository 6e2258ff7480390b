// What an operator sees: one log line per request carrying an id that the client may choose and
// that reaches the subgraphs; Prometheus metrics that move; and errors that, when a subgraph is
// down, are logged with their cause but never show clients an internal address.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";

interface LogLine { [key: string]: unknown; msg: string; name: string; level: number; requestId?: string }

let system: TestSystem;
const lines: LogLine[] = [];
const logStream = { write: (line: string) => { lines.push(JSON.parse(line) as LogLine); } };
const linesOf = (requestId: string) => lines.filter((l) => l.requestId === requestId);

/** A counter's value in the Prometheus text format (0 when the series does not exist yet). */
async function sample(series: string): Promise<number> {
  const text = (await system.request("GET", "/metrics")).text;
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

beforeAll(async () => { system = await startTestSystem({ LOG_LEVEL: "info" }, { logStream }); });
afterAll(async () => { await system?.stop(); });

describe("request log", () => {
  it("writes one structured line per request, under the id the client sent, and answers with that id", async () => {
    const response = await system.request("GET", "/health", { headers: { "x-request-id": "ops-test-1" } });
    expect(response.headers.get("x-request-id")).toBe("ops-test-1");
    const mine = linesOf("ops-test-1");
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      name: "router", msg: "request", method: "GET", url: "/health", route: "/health", status: 200, remoteAddress: "127.0.0.1",
    });
    expect(typeof mine[0].durationMs).toBe("number");
  });

  it("replaces an id that could forge log lines with a generated one", async () => {
    const response = await system.request("GET", "/health", { headers: { "x-request-id": "a b\"c" } });
    const id = response.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(linesOf(id!)).toHaveLength(1);
  });

  it("passes the id to every subgraph the request reaches, which logs under it too", async () => {
    const result = await system.request("POST", "/graphql", {
      auth: "admin",
      headers: { "x-request-id": "ops-test-2" },
      body: { query: "{ posts { totalCount } }" },
    });
    expect(result.status).toBe(200);
    const mine = linesOf("ops-test-2");
    expect(mine.find((l) => l.name === "router")).toMatchObject({ route: "/graphql", method: "POST", status: 200 });
    // The credential check and the query itself both reach the content subgraph.
    expect(mine.filter((l) => l.name === "content" && l.msg === "request").length).toBeGreaterThanOrEqual(2);
  });
});

describe("GET /metrics", () => {
  it("counts requests per route pattern and fetches per subgraph", async () => {
    const requests = 'http_requests_total{method="GET",route="/wp-json/*",status="200"}';
    const fetches = 'subgraph_fetches_total{subgraph="content",outcome="ok"}';
    const before = [await sample(requests), await sample(fetches)];
    expect((await system.request("GET", "/wp-json/core/v2/posts")).status).toBe(200);
    expect(await sample(requests)).toBe(before[0] + 1);
    expect(await sample(fetches)).toBeGreaterThan(before[1]);
    const text = (await system.request("GET", "/metrics")).text;
    expect(text).toContain("# TYPE http_request_duration_seconds histogram");
    expect(text).toContain("process_cpu_seconds_total");
  });
});

// Last: it stops the content subgraph.
describe("a subgraph that is down", () => {
  it("answers a stable code without internal addresses, and logs the cause", async () => {
    await system.subgraphs.find((s) => s.name === "content")!.stop();
    const response = await system.request("POST", "/graphql", {
      headers: { "x-request-id": "ops-test-3" }, body: { query: "{ posts { totalCount } }" },
    });
    expect(response.text).not.toMatch(/127\.0\.0\.1|http:\/\/|serviceName|ECONNREFUSED/);
    expect(response.body.errors[0].extensions.code).toBe("SERVICE_UNAVAILABLE");
    const failed = linesOf("ops-test-3").find((l) => l.level >= 50);
    expect(JSON.stringify(failed)).toMatch(/ECONNREFUSED|request to http/);
    expect(await sample('subgraph_fetches_total{subgraph="content",outcome="failed"}')).toBeGreaterThan(0);
    // The REST surfaces relay the same error.
    const rest = await system.request("GET", "/wp-json/core/v2/posts");
    expect(rest.status).toBe(503);
    expect(rest.text).not.toMatch(/127\.0\.0\.1|http:\/\/|serviceName|ECONNREFUSED/);
  });
});
