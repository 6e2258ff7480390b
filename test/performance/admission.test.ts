// The router admits anonymous queries a few at a time (QUERY_CONCURRENCY, router/graph.ts): with a
// single place, a burst of reads, each of which may run several operations (`_embed`), is answered
// in full, each read as it is answered alone.
import net from "node:net";
import type { ApolloGateway } from "@apollo/gateway";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { admitted, type RouterContext } from "../../router/graph.ts";
import { connectionClosed } from "../../router/server.ts";
import { startTestSystem, type TestResponse, type TestSystem } from "../helpers/system.ts";

describe("QUERY_CONCURRENCY=1: one anonymous query at a time", () => {
  let s: TestSystem;
  beforeAll(async () => {
    s = await startTestSystem({ QUERY_CONCURRENCY: "1" });
    for (let i = 0; i < 12; i++) await s.request("POST", "/wp-json/core/v2/posts", { auth: "admin", body: { title: `Admitted ${i}`, status: "publish" } });
  });
  afterAll(async () => { await s?.stop(); });

  test("a burst of anonymous reads, REST with embeds and GraphQL, each answers what it answers alone", async () => {
    const reads = [
      ...Array.from({ length: 12 }, (_, page) => ["GET", `/wp-json/core/v2/posts?per_page=1&page=${page + 1}&_embed`] as const),
      ...Array.from({ length: 6 }, (_, i) => ["POST", "/graphql", { query: `{ posts(perPage: ${i + 1}) { nodes { databaseId } } }` }] as const),
    ];
    const alone: TestResponse[] = [];
    for (const [method, path, body] of reads) alone.push(await s.request(method, path, { body }));
    // A signed-in read goes along with the burst, straight through.
    const together = await Promise.all([
      ...reads.map(([method, path, body]) => s.request(method, path, { body })),
      s.request("GET", "/wp-json/core/v2/posts?context=edit&per_page=1", { auth: "admin" }),
    ]);
    expect(together.map((r) => r.status)).toEqual([...alone.map(() => 200), 200]);
    together.slice(0, reads.length).forEach((r, i) => expect(r.body).toEqual(alone[i].body));
    expect(new Set(alone.slice(0, 12).map((r) => r.body[0].id)).size).toBe(12);
  });
});

describe("a query whose client has gone while it waited", () => {
  test("does not run when its turn comes: it answers CLIENT_CLOSED_REQUEST and the next one runs", async () => {
    const ran: string[] = [];
    let finishFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => { finishFirst = resolve; });
    const gateway = {
      load: async () => ({
        schema: undefined,
        executor: async ({ context }: { context: { name: string } }) => {
          ran.push(context.name);
          if (context.name === "first") await firstHeld;
          return { data: { name: context.name } };
        },
      }),
    } as unknown as ApolloGateway;
    const { executor } = await admitted(gateway, 1).load({ apollo: { keyHash: undefined, graphRef: undefined, key: undefined, graphVariant: "current" } });
    let gone = false;
    const context = (name: string, abandoned = () => false) => ({ name, identity: {}, failures: { server: false }, abandoned }) as unknown as RouterContext & { name: string };
    const query = (context: RouterContext) => executor({ operation: { operation: "query" }, context } as never);
    const leaving = context("leaving", () => gone);
    const answers = [query(context("first")), query(leaving), query(context("next"))];
    gone = true; // its client closes the connection while the first query holds the only place
    finishFirst();
    const [first, left, next] = await Promise.all(answers);
    expect(ran).toEqual(["first", "next"]);
    expect([first, next]).toEqual([{ data: { name: "first" } }, { data: { name: "next" } }]);
    expect(left.errors?.[0].extensions).toEqual({ code: "CLIENT_CLOSED_REQUEST", http: { status: 499 } });
    // Never kept or shared by the read cache.
    expect(leaving.failures?.server).toBe(true);
  });

  test("a request's connection reads as closed once its client has closed it, and open while the client waits", async () => {
    const app = Fastify();
    const waiting: (() => void)[] = [];
    const closed = new Map<net.Socket, boolean>();
    app.get("/wait", async (request) => {
      await new Promise<void>((resolve) => waiting.push(resolve));
      closed.set(request.raw.socket, connectionClosed(request));
      return "done";
    });
    // The server's end of each connection, by the client's port (a closed socket no longer tells its ports).
    const ends = new Map<number, net.Socket>();
    app.server.on("connection", (socket: net.Socket) => ends.set(socket.remotePort!, socket));
    const { port } = new URL(await app.listen({ port: 0, host: "127.0.0.1" }));
    const ask = () => new Promise<{ socket: net.Socket; port: number }>((resolve) => {
      const socket = net.connect(Number(port), "127.0.0.1", () => { socket.write("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n"); resolve({ socket, port: socket.localPort! }); });
      socket.on("error", () => {});
    });
    const waitFor = async (condition: () => boolean) => { while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5)); };
    const [staying, leaving] = [await ask(), await ask()];
    await waitFor(() => waiting.length === 2);
    leaving.socket.end();
    await waitFor(() => ends.get(leaving.port)?.destroyed === true);
    for (const release of waiting) release();
    await waitFor(() => closed.size === 2);
    expect([closed.get(ends.get(staying.port)!), closed.get(ends.get(leaving.port)!)]).toEqual([false, true]);
    staying.socket.destroy();
    await app.close();
  });
});
