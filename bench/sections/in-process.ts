// In one process on an in-memory database (or DATABASE_URL), no wrk:
// 1. batch/v1 (one request) vs the same 25 writes as separate REST requests, one at a time.
// 2. SQL statements for a GraphQL list of 10 vs 100 posts with author, categories and tags (batching
//    keeps the ratio near 1).
import crypto from "node:crypto";
import { loadConfig } from "../../lib/config.ts";
import { startSystem } from "../../router/system.ts";

export async function measureInProcess(log: (line: string) => void): Promise<void> {
  const password = "bench bench bench bench bench bench";
  // Every read executed (no read cache): the statement counts are the reads' own.
  const config = loadConfig({ ADMIN_APP_PASSWORD: password, LOG_LEVEL: "silent", READ_CACHE_TTL_MS: "0" }, {
    port: 0, databaseUrl: process.env.DATABASE_URL ?? "memory:", secretKey: crypto.randomBytes(32),
    subgraphPorts: { content: 0, extensions: 0, gateway: 0 },
  });
  const system = await startSystem(config);
  try {
    const auth = { authorization: `Basic ${Buffer.from(`admin:${password}`).toString("base64")}`, "content-type": "application/json" };
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${system.url}/wp-json${path}`, { method: "POST", headers: auth, body: JSON.stringify(body) });
      await response.arrayBuffer();
    };

    const N = 25;
    const ROUNDS = 4;
    let separate = 0;
    let batched = 0;
    for (let round = 0; round < ROUNDS; round++) {
      let t = performance.now();
      for (let i = 0; i < N; i++) await post("/core/v2/posts", { title: `s${round}-${i}`, status: "publish" });
      separate += performance.now() - t;
      t = performance.now();
      await post("/batch/v1", { requests: Array.from({ length: N }, (_, i) => ({ path: "/core/v2/posts", body: { title: `b${round}-${i}`, status: "publish" } })) });
      batched += performance.now() - t;
    }
    log(`  ${N} creates: separate requests ${(separate / ROUNDS).toFixed(0)} ms, one batch ${(batched / ROUNDS).toFixed(0)} ms, ratio ${(separate / batched).toFixed(2)}x`);

    const query = "query($n: Int) { posts(perPage: $n) { nodes { id author { name } categories { name } tags { name } } } }";
    const statements = async (n: number) => {
      const before = system.db.statements();
      const response = await fetch(`${system.url}/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query, variables: { n } }) });
      await response.arrayBuffer();
      return system.db.statements() - before;
    };
    await statements(10); // a warm-up: what is kept across requests is read once
    const ten = await statements(10);
    const hundred = await statements(100);
    log(`  SQL statements, list with author/categories/tags: 10 posts ${ten}, 100 posts ${hundred}, ratio ${(hundred / ten).toFixed(2)}`);
  } finally {
    await system.stop();
  }
}
