// block-editor/v1 over real HTTP and GraphQL: url-details against a fake web server on 127.0.0.1
// (no test reaches the internet): the head's title, icon, description and image, WordPress's
// errors, the hour-long cache and permissions; export: the site's block content as a zip.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { unzipSync, strFromU8 } from "fflate";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { headInformation, PageCache, URL_DETAILS_TTL_MS } from "../../subgraphs/extensions/block-editor/url-details.ts";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";
import { createUserWithPassword, type SignedInUser } from "../helpers/users.ts";

let s: TestSystem;
let web: http.Server;
let base: string;
let contributor: SignedInUser;
let subscriber: SignedInUser;
let editor: SignedInUser;
const hits: { path: string; agent: string }[] = [];
const R = "/wp-json/block-editor/v1";

beforeAll(async () => {
  web = http.createServer((req, res) => {
    hits.push({ path: req.url ?? "", agent: String(req.headers["user-agent"]) });
    if (req.url === "/article") {
      res.writeHead(200, { "content-type": "text/html" });
      return res.end(`<!doctype html><html><head><meta charset="utf-8">
        <title> Tom &amp; Jerry <b>live</b> </title>
        <link rel="stylesheet" href="/style.css"><link rel="shortcut icon" href="/favicon.ico">
        <meta name="description" content="Cats &amp; mice &lt;em&gt;forever&lt;/em&gt;">
        <meta property="og:image" content="img/cover.png">
        </head><body><title>Not this</title><meta name="description" content="nor this"></body></html>`);
    }
    if (req.url === "/bare") { res.writeHead(200); return res.end("<p>no head at all</p>"); }
    if (req.url === "/empty") { res.writeHead(200); return res.end(); }
    res.writeHead(404); res.end("missing");
  });
  await new Promise<void>((r) => web.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  s = await startTestSystem({ HTTP_ALLOWED_HOSTS: "127.0.0.1" });
  contributor = await createUserWithPassword(s, "cora", ["contributor"]);
  subscriber = await createUserWithPassword(s, "sid", ["subscriber"]);
  editor = await createUserWithPassword(s, "edna", ["editor"]);
});
afterAll(async () => {
  await s?.stop();
  web?.close();
});

const details = (url: string, auth: SignedInUser["auth"] | "visitor" = contributor.auth) =>
  s.request("GET", `${R}/url-details?url=${encodeURIComponent(url)}`, { auth: auth === "visitor" ? undefined : auth });

describe("block-editor/v1/url-details", () => {
  test("reads the head: title and description without tags or entities, absolute icon and image, nothing after <body>", async () => {
    const r = await details(`${base}/article/`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ title: "Tom & Jerry live", icon: `${base}/favicon.ico`, description: "Cats & mice forever", image: `${base}/img/cover.png` });
    // The trailing slash is dropped before fetching, and WordPress's URL-details user agent is sent.
    expect(hits.at(-1)).toEqual({ path: "/article", agent: "WP-URLDetails/6.1 (+http://example.test)" });
  });

  test("keeps the page for an hour: the second request is answered without fetching", async () => {
    const before = hits.length;
    expect((await details(`${base}/article`)).body.title).toBe("Tom & Jerry live");
    expect(hits.length).toBe(before);
  });

  test("a page without those elements answers empty strings", async () => {
    expect((await details(`${base}/bare`)).body).toEqual({ title: "", icon: "", description: "", image: "" });
  });

  test("WordPress's errors: no_response for non-200, no_content for an empty body, rest_invalid_param for an unsafe address", async () => {
    const missing = await details(`${base}/nowhere`);
    expect([missing.status, missing.body]).toEqual([404, { code: "no_response", message: "URL not found. Response returned a non-200 status code for this URL.", data: { status: 404 } }]);
    const empty = await details(`${base}/empty`);
    expect([empty.status, empty.body.code, empty.body.message]).toEqual([404, "no_content", "Unable to retrieve body from response at this URL."]);
    const before = hits.length;
    const local = await details(`http://localhost:${new URL(base).port}/article`);
    expect([local.status, local.body.code]).toEqual([400, "rest_invalid_param"]);
    expect(hits.length).toBe(before);
    const missingUrl = await s.request("GET", `${R}/url-details`, { auth: contributor.auth });
    expect([missingUrl.status, missingUrl.body.code]).toEqual([400, "rest_missing_callback_param"]);
  });

  test("needs edit_posts of some post type: 401 for visitors, 403 for subscribers", async () => {
    const visitor = await details(`${base}/article`, "visitor");
    expect([visitor.status, visitor.body]).toEqual([401, { code: "rest_cannot_view_url_details", message: "Sorry, you are not allowed to process remote URLs.", data: { status: 401 } }]);
    expect((await details(`${base}/article`, subscriber.auth)).status).toBe(403);
  });

  test("GraphQL answers the same details", async () => {
    const g = await s.graphql<{ urlDetails: { title: string; image: string } }>("query($u: String!) { urlDetails(url: $u) { title image } }", { u: `${base}/article` }, { auth: contributor.auth });
    expect(g.data?.urlDetails).toEqual({ title: "Tom & Jerry live", image: `${base}/img/cover.png` });
  });

  test("an unclosed <title> is the rest of the document, as WordPress reads it", () => {
    expect(headInformation("<head><title>Half &amp; open", "http://a.example/x").title).toBe("Half & open");
  });

  test("the index shows WordPress's arguments for url-details and export", async () => {
    const index = (await s.request("GET", "/wp-json/")).body;
    const recorded = JSON.parse(fs.readFileSync(new URL("../fixtures/wordpress-recordings/001-index.json", import.meta.url), "utf8")).response.body.routes;
    expect(index.routes["/block-editor/v1/url-details"].endpoints).toEqual(recorded["/wp-block-editor/v1/url-details"].endpoints);
    expect(index.routes["/block-editor/v1/export"].endpoints).toEqual(recorded["/wp-block-editor/v1/export"].endpoints);
    expect(index.namespaces.at(-1)).toBe("block-editor/v1");
  });
});

describe("block-editor/v1/export", () => {
  test("an administrator gets the site's block content as a zip", async () => {
    await s.request("POST", "/wp-json/core/v2/pages", { auth: "admin", body: { title: "Parent", slug: "parent", status: "publish", content: "<!-- wp:paragraph --><p>P</p><!-- /wp:paragraph -->" } })
      .then((p) => s.request("POST", "/wp-json/core/v2/pages", { auth: "admin", body: { title: "Child", slug: "child", parent: p.body.id, status: "draft", content: "<!-- wp:heading --><h2>C</h2><!-- /wp:heading -->" } }));
    const response = await fetch(`${s.url}${R}/export`, { headers: { authorization: `Basic ${Buffer.from("admin:abcd EFGH ijkl MNOP qrst UVWX").toString("base64")}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toBe("attachment; filename=partner-site.zip");
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    expect(Object.keys(files)).toEqual(expect.arrayContaining(["site.json", "posts/hello-world.html", "pages/sample-page.html", "pages/parent.html", "pages/parent/child.html"]));
    expect(strFromU8(files["pages/parent/child.html"])).toBe("<!-- wp:heading --><h2>C</h2><!-- /wp:heading -->");
    expect(JSON.parse(strFromU8(files["site.json"]))).toMatchObject({ name: "Partner Site", url: "http://example.test" });
  });

  test("needs edit_theme_options: 401 for visitors, 403 for editors", async () => {
    const visitor = await s.request("GET", `${R}/export`);
    expect([visitor.status, visitor.body]).toEqual([401, { code: "rest_cannot_export_templates", message: "Sorry, you are not allowed to export templates and template parts.", data: { status: 401 } }]);
    expect((await s.request("GET", `${R}/export`, { auth: editor.auth })).status).toBe(403);
  });

  test("GraphQL answers the same zip, base64-encoded", async () => {
    const g = await s.graphql<{ blockEditorExport: { filename: string; base64: string; files: string[] } }>("{ blockEditorExport { filename base64 files } }", {}, { auth: "admin" });
    expect(g.data?.blockEditorExport.filename).toBe("partner-site.zip");
    expect(Object.keys(unzipSync(Buffer.from(g.data!.blockEditorExport.base64, "base64")))).toEqual(g.data?.blockEditorExport.files);
  });
});

test("the url-details cache keeps a page for an hour, then asks again", () => {
  let now = 0;
  const cache = new PageCache(() => now);
  cache.set("http://a.example/x", "<title>x</title>");
  now = URL_DETAILS_TTL_MS - 1;
  expect(cache.get("http://a.example/x")).toBe("<title>x</title>");
  now = URL_DETAILS_TTL_MS;
  expect(cache.get("http://a.example/x")).toBeUndefined();
});
