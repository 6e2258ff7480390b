// oembed/1.0 over real HTTP: /embed of this site's own items as WordPress answers it (the recorded
// answers of a WordPress 6.1 install, with the site's address, the random secret and the receiver
// script set aside), maxwidth clamping, XML, errors; /proxy for editors against a fake provider on
// 127.0.0.1 (discovery, JSON before XML, the cache, filtering of unsanctioned HTML), and the same
// through GraphQL. No test reaches the internet.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { OEmbedCache, PROXY_TTL_MS } from "../../subgraphs/content/embeds/proxy.ts";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";
import { createUserWithPassword, type SignedInUser } from "../helpers/users.ts";

const RECORDINGS = new URL("../fixtures/wordpress-recordings/", import.meta.url);
const recording = (name: string) => JSON.parse(fs.readFileSync(new URL(name, RECORDINGS), "utf8"));
const RECORDED_SITE = "http://127.0.0.1:8088";
const SITE = "http://example.test";

let s: TestSystem;
let contributor: SignedInUser;
let subscriber: SignedInUser;
let provider: http.Server;
let providerUrl: string;
const providerHits: string[] = [];

/** The fake web: pages announcing providers in their head, and the providers answering. */
function fakeWeb(req: http.IncomingMessage, res: http.ServerResponse) {
  const url = new URL(req.url ?? "/", providerUrl);
  providerHits.push(url.pathname + url.search);
  const html = (head: string) => { res.writeHead(200, { "content-type": "text/html" }); res.end(`<!doctype html><html><head>${head}</head><body><link type="application/json+oembed" href="${providerUrl}/wrong"></body></html>`); };
  switch (url.pathname) {
    case "/video-page": // XML announced first, JSON second: JSON is preferred
      return html(`<title>A video</title><link rel="alternate" type="text/xml+oembed" href="${providerUrl}/oembed-xml?url=x&amp;format=xml"><link rel="alternate" type="application/json+oembed" href="${providerUrl}/oembed?url=x&amp;format=json">`);
    case "/xml-only-page":
      return html(`<link rel="alternate" type="text/xml+oembed" href="${providerUrl}/oembed-xml">`);
    case "/no-provider-page":
      return html("<title>Nothing</title>");
    case "/oembed": {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify({
        version: "1.0", type: "rich", title: "A video", provider_name: "Fake Tube", author_name: "Jo", width: Number(url.searchParams.get("maxwidth")), height: 300,
        html: `<blockquote><a href="${providerUrl}/v">A video</a></blockquote><script>alert(1)</script><iframe src="${providerUrl}/player" width="480" height="270" onload="evil()"></iframe>`,
        custom_field: "kept",
      }));
    }
    case "/oembed-xml": {
      if (url.searchParams.get("format") === "json") { res.writeHead(501); return res.end(); }
      res.writeHead(200, { "content-type": "text/xml" });
      return res.end(`<?xml version="1.0"?><oembed><version>1.0</version><type>link</type><title>Tom &amp; Jerry</title><provider_name>Fake XML</provider_name></oembed>`);
    }
    default:
      res.writeHead(404); res.end("not found");
  }
}

beforeAll(async () => {
  provider = http.createServer(fakeWeb);
  await new Promise<void>((r) => provider.listen(0, "127.0.0.1", r));
  providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  s = await startTestSystem({ HTTP_ALLOWED_HOSTS: "127.0.0.1" });
  contributor = await createUserWithPassword(s, "connie", ["contributor"]);
  subscriber = await createUserWithPassword(s, "sub", ["subscriber"]);
  // The recorded site: its title, and its first post under the recorded title and slug.
  expect((await s.request("POST", "/wp-json/core/v2/settings", { auth: "admin", body: { title: "WP Peer" } })).status).toBe(200);
  const post = await s.request("POST", "/wp-json/core/v2/posts", { auth: "admin", body: { title: "First seed post (edited)", slug: "first-seed-post", status: "publish", content: "Hi" } });
  expect(post.status).toBe(201);
});
afterAll(async () => {
  await s?.stop();
  provider?.close();
});

const q = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
const secretOf = (html: string) => /data-secret="([A-Za-z0-9]{10})"/.exec(html)?.[1];
/** The body with this site's address as the recorded one, one secret and no script (ours is our own). */
const comparable = (body: Record<string, unknown>, site: string) => {
  const html = String(body.html);
  const secret = secretOf(html)!;
  return { ...body, html: html.split(secret).join("SECRET").replaceAll(site, "SITE").replace(/<script>[\s\S]*<\/script>\n$/, "<script/>") };
};
const fromRecording = (body: Record<string, unknown>) => JSON.parse(JSON.stringify(comparable(body, RECORDED_SITE)).replaceAll(RECORDED_SITE, SITE));

describe("oembed/1.0/embed", () => {
  for (const [file, extra] of [["091-oembed-local.json", {}], ["093-oembed-maxwidth-100.json", { maxwidth: 100 }]] as const) {
    test(`answers as WordPress recorded it: ${file}`, async () => {
      const rec = recording(file);
      const r = await s.request("GET", `/wp-json/oembed/1.0/embed?${q({ url: `${SITE}/first-seed-post/`, ...extra })}`);
      expect(r.status).toBe(rec.response.status);
      expect(r.headers.get("content-type")).toBe(rec.response.headers["Content-Type"]);
      expect(r.headers.get("allow")).toBe("GET");
      expect(Object.keys(r.body)).toEqual(Object.keys(rec.response.body));
      expect(comparable(r.body, SITE)).toEqual(fromRecording(rec.response.body));
      // One secret shared by the blockquote, the iframe's address and its data attribute; and a script.
      const secret = secretOf(r.body.html)!;
      expect(r.body.html.split(secret)).toHaveLength(4);
      expect(r.body.html).toContain(`src="${SITE}/first-seed-post/embed/#?secret=${secret}"`);
      expect(r.body.html).toMatch(/<script>[\s\S]+receiveEmbedMessage[\s\S]+<\/script>\n$/);
    });
  }

  test("a missing url is rest_missing_callback_param, as recorded", async () => {
    const rec = recording("095-oembed-missing-url.json");
    const r = await s.request("GET", "/wp-json/oembed/1.0/embed");
    expect(r.status).toBe(rec.response.status);
    expect(r.body).toEqual(rec.response.body);
  });

  test("maxwidth is clamped to 200–600 with a 16:9 height of at least 200; junk widths are absint", async () => {
    for (const [maxwidth, width, height] of [[400, 400, 225], [1000, 600, 338], [201, 201, 200], [-450, 450, 254], ["abc", 200, 200]] as const) {
      const r = await s.request("GET", `/wp-json/oembed/1.0/embed?${q({ url: `${SITE}/first-seed-post`, maxwidth })}`);
      expect([r.status, r.body.width, r.body.height]).toEqual([200, width, height]);
      expect(r.body.html).toContain(`width="${width}" height="${height}"`);
    }
  });

  test("?p= links, the /embed/ address and pages resolve; drafts, other hosts and unknown slugs are oembed_invalid_url", async () => {
    const page = await s.request("POST", "/wp-json/core/v2/pages", { auth: "admin", body: { title: "About & us", slug: "about", status: "publish" } });
    const draft = await s.request("POST", "/wp-json/core/v2/posts", { auth: "admin", body: { title: "Secret", slug: "secret-draft", status: "draft" } });
    const ok = async (url: string) => (await s.request("GET", `/wp-json/oembed/1.0/embed?${q({ url })}`));
    expect((await ok(`${SITE}/about/`)).body.title).toBe("About & us");
    expect((await ok(`${SITE}/about/`)).body.html).toContain('title="&#8220;About &amp; us&#8221; &#8212; WP Peer"');
    expect((await ok(`${SITE}/?page_id=${page.body.id}`)).body.title).toBe("About & us");
    expect((await ok(`${SITE}/first-seed-post/embed/`)).body.title).toBe("First seed post (edited)");
    for (const url of [`${SITE}/?p=${draft.body.id}`, `${SITE}/secret-draft/`, "http://elsewhere.test/first-seed-post/", `${SITE}/no-such-thing/`]) {
      const r = await ok(url);
      expect([r.status, r.body]).toEqual([404, { code: "oembed_invalid_url", message: "Not Found", data: { status: 404 } }]);
    }
  });

  test("format=xml answers WordPress's XML document as text/xml, errors included; other formats answer JSON", async () => {
    const r = await s.request("GET", `/wp-json/oembed/1.0/embed?${q({ url: `${SITE}/first-seed-post/`, format: "xml", maxwidth: 400 })}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/xml; charset=UTF-8");
    expect(r.text).toMatch(/^<\?xml version="1\.0"\?>\n<oembed><version>1\.0<\/version><provider_name>WP Peer<\/provider_name><provider_url>http:\/\/example\.test<\/provider_url>/);
    expect(r.text).toContain("<width>400</width><height>225</height><html>&lt;blockquote class=&quot;wp-embedded-content&quot;");
    // Errors are served as XML too, with their status.
    const missing = await s.request("GET", `/wp-json/oembed/1.0/embed?${q({ url: `${SITE}/nope/`, format: "xml" })}`);
    expect([missing.status, missing.headers.get("content-type"), missing.text]).toEqual([
      404, "text/xml; charset=UTF-8", '<?xml version="1.0"?>\n<oembed><code>oembed_invalid_url</code><message>Not Found</message><data><status>404</status></data></oembed>\n',
    ]);
    const noUrl = await s.request("GET", "/wp-json/oembed/1.0/embed?format=xml");
    expect([noUrl.status, noUrl.text]).toEqual([400, '<?xml version="1.0"?>\n<oembed><code>rest_missing_callback_param</code><message>Missing parameter(s): url</message><data><status>400</status><params><oembed>url</oembed></params></data></oembed>\n']);
    const other = await s.request("GET", `/wp-json/oembed/1.0/embed?${q({ url: `${SITE}/first-seed-post/`, format: "yaml" })}`);
    expect(other.headers.get("content-type")).toBe("application/json; charset=UTF-8");
    expect(other.body.version).toBe("1.0");
  });

  test("a featured image becomes the thumbnail, sized for the frame", async () => {
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP4z8DAwMDAxAAADhYBAb9e3bEAAAAASUVORK5CYII=", "base64");
    const media = await s.request("POST", "/wp-json/core/v2/media", { auth: "admin", raw: png, headers: { "content-type": "image/png", "content-disposition": 'attachment; filename="wide.png"' } });
    expect(media.status).toBe(201);
    const post = await s.request("POST", "/wp-json/core/v2/posts", { auth: "admin", body: { title: "Pictured", status: "publish", featured_media: media.body.id } });
    const r = await s.request("GET", `/wp-json/oembed/1.0/embed?${q({ url: post.body.link })}`);
    expect(r.body).toMatchObject({ thumbnail_url: media.body.source_url, thumbnail_width: 2, thumbnail_height: 1 });
    expect(Object.keys(r.body).slice(-3)).toEqual(["thumbnail_url", "thumbnail_width", "thumbnail_height"]);
  });

  test("GraphQL answers the same embed, and the same error code", async () => {
    const r = await s.graphql<{ oembed: { width: number; height: number; title: string; providerUrl: string } }>(
      "query($url: String!) { oembed(url: $url, maxwidth: 100) { width height title providerUrl } }", { url: `${SITE}/first-seed-post/` });
    expect(r.data?.oembed).toEqual({ width: 200, height: 200, title: "First seed post (edited)", providerUrl: SITE });
    const missing = await s.graphql("query { oembed(url: \"http://example.test/nope/\") { title } }");
    expect(missing.errors?.[0].extensions?.code).toBe("oembed_invalid_url");
  });
});

describe("oembed/1.0/proxy", () => {
  const proxy = (params: Record<string, string | number>, auth: SignedInUser["auth"] | "admin" | "visitor" = contributor.auth) =>
    s.request("GET", `/wp-json/oembed/1.0/proxy?${q(params)}`, { auth: auth === "visitor" ? undefined : auth });

  test("needs edit_posts: 401 for visitors, 403 for subscribers, with WordPress's message", async () => {
    const anonymous = await proxy({ url: `${providerUrl}/video-page` }, "visitor");
    expect([anonymous.status, anonymous.body.code, anonymous.body.message]).toEqual([401, "rest_forbidden", "Sorry, you are not allowed to make proxied oEmbed requests."]);
    expect((await proxy({ url: `${providerUrl}/video-page` }, subscriber.auth)).status).toBe(403);
  });

  test("discovers the JSON provider, asks it with maxwidth, maxheight, url and dnt, keeps its fields and filters its HTML", async () => {
    providerHits.length = 0;
    const url = `${providerUrl}/video-page`;
    const r = await proxy({ url, maxwidth: 480 });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ type: "rich", title: "A video", provider_name: "Fake Tube", width: 480, custom_field: "kept" });
    const asked = new URL(providerHits.find((h) => h.startsWith("/oembed?"))!, providerUrl).searchParams;
    expect(Object.fromEntries(asked)).toEqual({ url, format: "json", maxwidth: "480", maxheight: "750", dnt: "1" });
    expect(providerHits.some((h) => h.startsWith("/oembed-xml"))).toBe(false);
    const html: string = r.body.html;
    const secret = secretOf(html)!;
    expect(html).toBe(
      `<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="${providerUrl}/v">A video</a></blockquote>`
      + `<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted" style="position: absolute; visibility: hidden;" title="A video" src="${providerUrl}/player#?secret=${secret}" data-secret="${secret}" width="480" height="270"></iframe>`,
    );
    expect(html).not.toMatch(/<script|onload|evil/);
  });

  test("answers from the cache for the same arguments, and asks again for others", async () => {
    const url = `${providerUrl}/video-page`;
    await proxy({ url, maxwidth: 300 });
    providerHits.length = 0;
    const again = await proxy({ url, maxwidth: 300 });
    expect(again.body.width).toBe(300);
    expect(providerHits).toEqual([]);
    await proxy({ url, maxwidth: 301 });
    expect(providerHits.length).toBeGreaterThan(0);
  });

  test("an XML-only provider is asked in JSON first, then in XML after its 501; a link's HTML is its title", async () => {
    const r = await proxy({ url: `${providerUrl}/xml-only-page` });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ version: "1.0", type: "link", title: "Tom & Jerry", provider_name: "Fake XML", html: `<a href="${providerUrl}/xml-only-page">Tom &amp; Jerry</a>` });
  });

  test("no provider, or discover=false, is oembed_invalid_url; media files use the embed handlers", async () => {
    for (const params of [{ url: `${providerUrl}/no-provider-page` }, { url: `${providerUrl}/video-page`, discover: "false", maxwidth: 599 }] as Record<string, string | number>[]) {
      const r = await proxy(params);
      expect([r.status, r.body]).toEqual([404, { code: "oembed_invalid_url", message: "Not Found", data: { status: 404 } }]);
    }
    const audio = await proxy({ url: `${providerUrl}/song.mp3` });
    expect(audio.body).toMatchObject({ provider_name: "Embed Handler", scripts: [] });
    expect(audio.body.html).toContain(`<audio class="wp-audio-shortcode" controls="controls" preload="none" src="${providerUrl}/song.mp3"`);
  });

  test("this site's own items are answered without HTTP", async () => {
    const r = await proxy({ url: `${SITE}/first-seed-post/`, maxwidth: 400 });
    expect(r.body).toMatchObject({ title: "First seed post (edited)", width: 400, height: 225, provider_name: "WP Peer" });
  });

  test("the outbound client refuses this machine's own network unless allowed: localhost is not reached", async () => {
    providerHits.length = 0;
    const port = new URL(providerUrl).port;
    const r = await proxy({ url: `http://localhost:${port}/video-page` });
    expect(r.status).toBe(404);
    expect(providerHits).toEqual([]);
  });

  test("GraphQL: oembedProxy answers the same document, and refuses visitors", async () => {
    const query = "query($url: String!) { oembedProxy(url: $url, maxwidth: 480) { type title providerName html document } }";
    const r = await s.graphql<{ oembedProxy: { type: string; title: string; providerName: string; html: string; document: string } }>(query, { url: `${providerUrl}/video-page` }, { auth: contributor.auth });
    expect(r.data?.oembedProxy).toMatchObject({ type: "rich", title: "A video", providerName: "Fake Tube" });
    expect(JSON.parse(r.data!.oembedProxy.document).custom_field).toBe("kept");
    const refused = await s.graphql(query, { url: `${providerUrl}/video-page` });
    expect(refused.errors?.[0].extensions?.code).toBe("rest_forbidden");
  });

  test("the index lists the namespace and both routes with WordPress's arguments", async () => {
    const index = (await s.request("GET", "/wp-json/")).body;
    const rec = recording("001-index.json").response.body;
    expect(index.namespaces).toContain("oembed/1.0");
    for (const path of ["/oembed/1.0/embed", "/oembed/1.0/proxy"]) {
      expect(index.routes[path].endpoints).toEqual(rec.routes[path].endpoints);
    }
  });
});

test("the proxy cache keeps an answer for a day (rest_oembed_ttl), then asks again", () => {
  let now = 0;
  const cache = new OEmbedCache(() => now);
  cache.set("k", { type: "rich" });
  now = PROXY_TTL_MS - 1;
  expect(cache.get("k")).toEqual({ type: "rich" });
  now = PROXY_TTL_MS;
  expect(cache.get("k")).toBeUndefined();
});
