// Behind Hive Gateway (another router, not ours) the exported supergraph must answer as our router
// does, signed-in callers included: the gateway forwards the caller's own credentials
// (gateway.config.ts) and each subgraph checks them itself (lib/subgraph.ts).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { composeSupergraph } from "../../router/compose.ts";
import { SUBGRAPH_SCHEMAS } from "../../subgraphs/schemas.ts";
import { ADMIN_APP_PASSWORD, GATEWAY_ADMIN_PASSWORD, startTestSystem, type TestSystem } from "../helpers/system.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const SECRET = "hive-gateway-test-subgraph-secret-0123456789";
const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
const ADMIN = basic("admin", ADMIN_APP_PASSWORD);

let s: TestSystem;
let hive: ChildProcess | undefined;
let hiveUrl = "";
let unavailable = "";

const freePort = () => new Promise<number>((resolve, reject) => {
  const server = net.createServer().listen(0, "127.0.0.1", () => {
    const { port } = server.address() as net.AddressInfo;
    server.close(() => resolve(port));
  }).on("error", reject);
});

/** Starts the gateway CLI from the repository root (it reads gateway.config.ts there); resolves once it answers. */
async function startHive(supergraphFile: string): Promise<void> {
  const port = await freePort();
  const bin = path.join(root, "node_modules/.bin/hive-gateway");
  if (!fs.existsSync(bin)) throw new Error("node_modules/.bin/hive-gateway is not installed");
  let output = "";
  hive = spawn(bin, ["supergraph", supergraphFile, "--port", String(port), "--host", "127.0.0.1"], {
    cwd: root, env: { ...process.env, SUBGRAPH_SECRET: SECRET, NODE_ENV: "production" }, stdio: ["ignore", "pipe", "pipe"],
  });
  hive.stdout?.on("data", (d: Buffer) => { output += d; });
  hive.stderr?.on("data", (d: Buffer) => { output += d; });
  const exited = new Promise<never>((_, reject) => hive!.once("exit", (code) => reject(new Error(`hive-gateway exited (${code}):\n${output}`))));
  const ready = (async () => {
    for (;;) {
      try {
        const r = await fetch(`http://127.0.0.1:${port}/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"query":"{__typename}"}' });
        if (r.ok) return;
      } catch { /* not listening yet */ }
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  await Promise.race([ready, exited]);
  hiveUrl = `http://127.0.0.1:${port}/graphql`;
}

beforeAll(async () => {
  s = await startTestSystem({ SUBGRAPH_SECRET: SECRET });
  const urls = Object.fromEntries(s.subgraphs.map((g) => [g.name, g.url]));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hive-gateway-"));
  const file = path.join(dir, "supergraph.graphql");
  fs.writeFileSync(file, composeSupergraph(SUBGRAPH_SCHEMAS.map((g) => ({ ...g, url: urls[g.name] }))));
  try {
    await startHive(file);
  } catch (error) {
    unavailable = String(error instanceof Error ? error.message : error);
    console.warn(`Hive Gateway could not start; skipping: ${unavailable}`);
  }
}, 60_000);

afterAll(async () => {
  if (hive && hive.exitCode === null) {
    const exited = new Promise((r) => hive!.once("exit", r));
    hive.kill("SIGTERM");
    await exited;
  }
  await s?.stop();
});

interface Answer { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: { code?: string } }[] }

async function post(url: string, query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<Answer> {
  const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ query, variables }) });
  return (await r.json()) as Answer;
}

/** The same operation through our router and through Hive Gateway. */
const both = async (query: string, variables?: Record<string, unknown>, headers?: Record<string, string>) =>
  Promise.all([post(`${s.url}/graphql`, query, variables, headers), post(hiveUrl, query, variables, headers)]);

describe("the exported supergraph behind Hive Gateway", () => {
  it("answers an anonymous query as our router does", async (ctx) => {
    if (unavailable) ctx.skip(`Hive Gateway could not start: ${unavailable}`);
    const [ours, theirs] = await both("{ viewer { id } viewerCan { createPosts } languagesViewerCan { manage } }");
    expect(ours).toEqual({ data: { viewer: null, viewerCan: { createPosts: false }, languagesViewerCan: { manage: false } } });
    expect(theirs).toEqual(ours);
  });

  it("signs the caller in with an application password, in every subgraph", async (ctx) => {
    if (unavailable) ctx.skip(`Hive Gateway could not start: ${unavailable}`);
    // viewer/viewerCan: content; languagesViewerCan: extensions, which must learn the site roles too.
    const query = "{ viewer { id: databaseId name } viewerCan { createPosts createPages } languagesViewerCan { manage } }";
    const [ours, theirs] = await both(query, {}, { authorization: ADMIN });
    expect(ours.data).toMatchObject({ viewer: { id: 1 }, viewerCan: { createPosts: true, createPages: true }, languagesViewerCan: { manage: true } });
    expect(theirs).toEqual(ours);
    // A wrong password leaves the caller a visitor, as with our router.
    const [oursWrong, theirsWrong] = await both(query, {}, { authorization: basic("admin", "wrong password here") });
    expect(oursWrong.data).toMatchObject({ viewer: null, viewerCan: { createPosts: false } });
    expect(theirsWrong).toEqual(oursWrong);
  });

  it("writes with Basic auth, and refuses a visitor's write", async (ctx) => {
    if (unavailable) ctx.skip(`Hive Gateway could not start: ${unavailable}`);
    const create = "mutation($title: String!) { createPost(input: { title: $title, status: PUBLISH }) { id title { raw } } }";
    const written = await post(hiveUrl, create, { title: "Through Hive Gateway" }, { authorization: ADMIN });
    expect(written.errors).toBeUndefined();
    const id = (written.data?.createPost as { id: string }).id;
    const [ours, theirs] = await both("query($id: ID!) { post(id: $id) { id title { rendered } } }", { id });
    expect(ours.data).toEqual({ post: { id, title: { rendered: "Through Hive Gateway" } } });
    expect(theirs).toEqual(ours);
    const refused = await post(hiveUrl, create, { title: "Visitor" });
    expect(refused.errors?.[0]?.extensions?.code).toBe("rest_cannot_create");
  });

  it("signs in to the email gateway and uses the token", async (ctx) => {
    if (unavailable) ctx.skip(`Hive Gateway could not start: ${unavailable}`);
    const login = "mutation($password: String!) { gatewayLogin(username: \"admin\", password: $password) { token } }";
    const signedIn = await post(hiveUrl, login, { password: GATEWAY_ADMIN_PASSWORD });
    const token = (signedIn.data?.gatewayLogin as { token: string } | undefined)?.token;
    expect(token).toEqual(expect.any(String));
    const query = "{ accountedEmails(itemsPerPage: 1) { totalItems page } }";
    const [ours, theirs] = await both(query, {}, { "x-esg-auth-token": token! });
    expect(ours.errors).toBeUndefined();
    expect(theirs).toEqual(ours);
    // Without the token the gateway refuses, through either router.
    const [oursAnonymous, theirsAnonymous] = await both(query);
    expect(oursAnonymous.errors?.[0]?.extensions?.code).toEqual(expect.any(String));
    expect(theirsAnonymous.errors?.[0]?.extensions?.code).toBe(oursAnonymous.errors?.[0]?.extensions?.code);
  });
});
