// The embed page an oEmbed iframe shows (`<permalink>embed/`, `?p=N&embed=true`): what a visitor's
// frame displays (title linked to the permalink, excerpt, featured image, site title and icon),
// the headers WordPress sends for site pages, the sandbox-safe policy (its one inline script is the
// only one allowed), 404 for what may not be embedded, the frame script's side of the secret
// protocol run against a fake window, and the oEmbed answer's iframe address answering 200.
import crypto from "node:crypto";
import vm from "node:vm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { EMBED_FRAME_SCRIPT } from "../../subgraphs/content/embeds/embed-page.ts";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";

const SITE = "http://example.test";
let s: TestSystem;
let postId: number;
let draftId: number;

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i + 1}`).join(" ");
const create = async (type: "posts" | "pages", body: Record<string, unknown>) => {
  const r = await s.request("POST", `/wp-json/core/v2/${type}`, { auth: "admin", body });
  expect(r.status, r.text).toBe(201);
  return r.body as { id: number; link: string };
};
/** Uploads an image as the administrator; the media item as REST answers it. */
const upload = async (bytes: Buffer, filename: string) => {
  const r = await s.request("POST", "/wp-json/core/v2/media", { auth: "admin", raw: bytes, headers: { "content-type": "image/png", "content-disposition": `attachment; filename="${filename}"` } });
  expect(r.status, r.text).toBe(201);
  return r.body;
};
/** A site address as the router's own (the test site's host is not resolvable). */
const local = (url: string) => url.replace(SITE, "");

beforeAll(async () => {
  s = await startTestSystem();
  expect((await s.request("POST", "/wp-json/core/v2/settings", { auth: "admin", body: { title: "Embed & Co" } })).status).toBe(200);
  postId = (await create("posts", { title: "Hello <b>embed</b>", slug: "hello-embed", status: "publish", content: `<!-- wp:paragraph --><p>${words(40)}</p><!-- /wp:paragraph -->` })).id;
  draftId = (await create("posts", { title: "Secret draft", slug: "secret-draft", status: "draft", content: "Not yet" })).id;
}, 60_000);
afterAll(async () => { await s?.stop(); });

describe("embed page", () => {
  test("a published post: title linked to its permalink, 35-word excerpt, site title; site-page headers", async () => {
    const r = await s.request("GET", "/hello-embed/embed/");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/html; charset=UTF-8");
    expect(r.headers.get("link")).toBe(`<${SITE}/wp-json/>; rel="https://api.w.org/"`);
    expect(r.headers.get("x-wp-embed")).toBe("true");
    const html = r.text;
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain("<title>Hello embed &#8211; Embed &amp; Co</title>");
    expect(html).toContain('<meta name="robots" content="noindex, follow">');
    expect(html).toContain(`<link rel="canonical" href="${SITE}/hello-embed/">`);
    // The title as text (no markup from the stored title), linked for the top window.
    expect(html).toContain(`<p class="wp-embed-heading"><a href="${SITE}/hello-embed/" target="_top">Hello embed</a></p>`);
    expect(html).toContain(`<p>${words(35)} &hellip; <a href="${SITE}/hello-embed/" class="wp-embed-more" target="_top">Continue reading <span class="screen-reader-text">Hello embed</span></a></p>`);
    expect(html).not.toContain("word36");
    expect(html).toContain(`<div class="wp-embed-site-title"><a href="${SITE}" target="_top"><span>Embed &amp; Co</span></a></div>`);
  });

  test("sandbox-safe: one inline script, the only one the page's policy allows; nothing else loaded", async () => {
    const r = await s.request("GET", "/hello-embed/embed/");
    const scripts = [...r.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((m) => m[1])).toEqual([""]);
    const hash = crypto.createHash("sha256").update(scripts[0][2]).digest("base64");
    const csp = r.headers.get("content-security-policy") ?? "";
    expect(csp).toContain(`script-src 'sha256-${hash}';`);
    expect(csp).toContain("default-src 'none'");
    expect(r.text).not.toMatch(/<link rel="stylesheet"|<iframe|<form/);
  });

  test("the same page as ?embed=true and as ?p=N&embed=true; without the trailing slash it moves (301); HEAD too", async () => {
    /** The page with the share box's fresh secret masked. */
    const masked = (html: string) => html.replace(/secret=[A-Za-z0-9]{10}/g, "secret=S").replace(/data-secret=&quot;[A-Za-z0-9]{10}&quot;/g, "data-secret=S");
    const page = masked((await s.request("GET", "/hello-embed/embed/")).text);
    for (const path of ["/hello-embed/?embed=true", `/?p=${postId}&embed=true`]) {
      const r = await s.request("GET", path);
      expect([path, r.status, masked(r.text)]).toEqual([path, 200, page]);
    }
    const moved = await fetch(`${s.url}/hello-embed/embed?x=1`, { redirect: "manual" });
    expect([moved.status, moved.headers.get("location")]).toEqual([301, `${SITE}/hello-embed/embed/?x=1`]);
    expect((await fetch(`${s.url}/secret-draft/embed`, { redirect: "manual" })).status).toBe(404);
    const head = await s.request("HEAD", "/hello-embed/embed/");
    expect([head.status, head.headers.get("x-wp-embed"), head.text]).toEqual([200, "true", ""]);
    // Without `embed`, `/` is still the landing page and a permalink is not an embed.
    expect((await s.request("GET", `/?p=${postId}`)).text).not.toContain("wp-embed");
  });

  test("the share box: the address for WordPress sites and the embed HTML for others", async () => {
    const html = (await s.request("GET", "/hello-embed/embed/")).text;
    expect(html).toContain(`<input type="text" readonly value="${SITE}/hello-embed/">`);
    const code = /<textarea readonly rows="5">([^<]*)<\/textarea>/.exec(html)?.[1] ?? "";
    expect(code).toMatch(new RegExp(`^&lt;blockquote class=&quot;wp-embedded-content&quot; data-secret=&quot;[A-Za-z0-9]{10}&quot;&gt;`));
    expect(code).toContain(`src=&quot;${SITE}/hello-embed/embed/#?secret=`);
    expect(code).toContain("width=&quot;600&quot; height=&quot;400&quot;");
    // The code as the oEmbed answer gives it; its entities stay entities once the text is copied.
    expect(code).toContain("title=&quot;&amp;#8220;Hello &amp;lt;b&amp;gt;embed&amp;lt;/b&amp;gt;&amp;#8221; &amp;#8212; Embed &amp;amp; Co&quot;");
  });

  test("404 for a draft (even to its author: the page is what a visitor sees), a private post, an unknown address", async () => {
    const privatePost = await create("posts", { title: "Private", slug: "private-one", status: "private", content: "x" });
    for (const [path, auth] of [
      ["/secret-draft/embed/", undefined], [`/?p=${draftId}&embed=true`, undefined], [`/?p=${draftId}&embed=true`, "admin"],
      ["/private-one/embed/", "admin"], [`/?p=${privatePost.id}&embed=true`, undefined], ["/no-such-post/embed/", undefined], ["/?p=999999&embed=true", undefined],
    ] as const) {
      const r = await s.request("GET", path, { auth });
      expect([path, r.status]).toEqual([path, 404]);
      expect(r.headers.get("content-type")).toBe("text/html; charset=UTF-8");
      expect(r.text).toContain("Oops! That embed can&#8217;t be found.");
      expect(r.text).not.toContain("Secret draft");
      expect(r.text).not.toContain("Not yet");
    }
  });

  test("GraphQL embedPage: the same page; an address that is not valid percent-encoding is not found, not an error", async () => {
    const found = await s.graphql<{ embedPage: { status: number; html: string } }>("query($url: String!) { embedPage(url: $url) { status html } }", { url: `${SITE}/hello-embed/embed/` });
    expect(found.data?.embedPage.status).toBe(200);
    expect(found.data?.embedPage.html).toContain(">Hello embed</a></p>");
    const bad = await s.graphql<{ embedPage: { status: number; html: string } }>("query($url: String!) { embedPage(url: $url) { status html } }", { url: `${SITE}/%E0%A4%A/embed/` });
    expect([bad.errors, bad.data?.embedPage.status]).toEqual([undefined, 404]);
    expect(bad.data?.embedPage.html).toContain("Oops! That embed can&#8217;t be found.");
  });

  test("API paths ending in /embed stay API routes", async () => {
    const r = await s.request("GET", `/wp-json/oembed/1.0/embed?url=${encodeURIComponent(`${SITE}/hello-embed/`)}`);
    expect(r.headers.get("content-type")).toBe("application/json; charset=UTF-8");
    expect(r.body.title).toBe("Hello <b>embed</b>");
  });

  test("the oEmbed answer's iframe address answers 200 with the post's page", async () => {
    const oembed = await s.request("GET", `/wp-json/oembed/1.0/embed?url=${encodeURIComponent(`${SITE}/hello-embed/`)}`);
    const src = /<iframe[^>]* src="([^"]+)"/.exec(oembed.body.html)?.[1];
    expect(src).toMatch(new RegExp(`^${SITE}/hello-embed/embed/#\\?secret=[A-Za-z0-9]{10}$`));
    const r = await s.request("GET", local(src!.replace(/#.*$/, "")));
    expect(r.status).toBe(200);
    expect(r.text).toContain(`href="${SITE}/hello-embed/" target="_top">Hello embed</a>`);
  });

  test("a page under its parent, a protected post, a manual excerpt", async () => {
    const parent = await create("pages", { title: "About", slug: "about", status: "publish" });
    await create("pages", { title: "Team", slug: "team", status: "publish", parent: parent.id, excerpt: "The people." });
    const team = await s.request("GET", "/about/team/embed/");
    expect(team.status).toBe(200);
    expect(team.text).toContain(`<a href="${SITE}/about/team/" target="_top">Team</a>`);
    expect(team.text).toContain('<div class="wp-embed-excerpt"><p>The people.</p></div>');
    expect((await s.request("GET", "/team/embed/")).status).toBe(404);
    await create("posts", { title: "Locked", slug: "locked", status: "publish", password: "pw", content: "hidden words" });
    const locked = await s.request("GET", "/locked/embed/");
    expect(locked.status).toBe(200);
    expect(locked.text).toContain(">Protected: Locked</a>");
    expect(locked.text).toContain("There is no excerpt because this is a protected post.");
    expect(locked.text).not.toContain("hidden words");
  });

  test("featured image: a wide one's widest-proportioned size above the title with its alt text; the site icon in the footer", async () => {
    const bytes = await sharp({ create: { width: 1600, height: 400, channels: 3, background: { r: 200, g: 30, b: 30 } } }).png().toBuffer();
    const media = await upload(bytes, "wide.png");
    expect((await s.request("POST", `/wp-json/core/v2/media/${media.id}`, { auth: "admin", body: { alt_text: "A wide picture" } })).status).toBe(200);
    await create("posts", { title: "Pictured", slug: "pictured", status: "publish", featured_media: media.id, content: "See." });
    expect((await s.request("POST", "/wp-json/core/v2/settings", { auth: "admin", body: { site_icon: media.id } })).status).toBe(200);
    const r = await s.request("GET", "/pictured/embed/");
    expect(r.status).toBe(200);
    const img = /<div class="wp-embed-featured-image rectangular"><a href="([^"]+)" target="_top"><img src="([^"]+)" width="(\d+)" height="(\d+)" class="attachment-([\w-]+) size-\5" alt="A wide picture"/.exec(r.text);
    expect(img?.[1]).toBe(`${SITE}/pictured/`);
    const sizes = media.media_details.sizes as Record<string, { source_url: string; width: number; height: number }>;
    const chosen = sizes[img![5]];
    // A 4:1 sub-size (not the cropped square thumbnail, not the full image), shown at its own size.
    expect(img![5]).not.toMatch(/^(thumbnail|full)$/);
    expect([img![2], Number(img![3]), Number(img![4])]).toEqual([chosen.source_url, chosen.width, chosen.height]);
    expect(chosen.width / chosen.height).toBe(4);
    expect(r.text.indexOf(img![0])).toBeLessThan(r.text.indexOf('<p class="wp-embed-heading"'));
    expect(r.text).toContain(`<img src="${media.source_url}" width="32" height="32" alt="" class="wp-embed-site-icon"/><span>Embed &amp; Co</span>`);
  });

  test("an image without wide sub-sizes is square, beside the excerpt; an image's own page embeds it", async () => {
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP4z8DAwMDAxAAADhYBAb9e3bEAAAAASUVORK5CYII=", "base64");
    const media = await upload(png, "tiny.png");
    await create("posts", { title: "Small picture", slug: "small-picture", status: "publish", featured_media: media.id, content: "Tiny." });
    const r = await s.request("GET", "/small-picture/embed/");
    const figure = `<div class="wp-embed-featured-image square"><a href="${SITE}/small-picture/" target="_top"><img src="${media.source_url}" width="2" height="1" class="attachment-full size-full"`;
    expect(r.text).toContain(figure);
    expect(r.text.indexOf(figure)).toBeGreaterThan(r.text.indexOf('<p class="wp-embed-heading"'));
    const attachment = await s.request("GET", `/?p=${media.id}&embed=true`);
    expect(attachment.status).toBe(200);
    expect(attachment.text).toContain(`<img src="${media.source_url}" width="2" height="1"`);
  });
});

describe("frame script (the embedded side of the secret protocol)", () => {
  /** Runs the page's script in a fake framed window; returns what it posted to the parent and its event handlers. */
  function frame(hash: string, framed = true) {
    const posted: unknown[] = [];
    const handlers: Record<string, ((e: unknown) => void)[]> = {};
    const on = (type: string, fn: (e: unknown) => void) => { (handlers[type] ??= []).push(fn); };
    const parent = { postMessage: (data: unknown, origin: string) => posted.push({ data, origin }) };
    const documentElement = { className: "no-js", getBoundingClientRect: () => ({ height: 321.2 }) };
    const window: Record<string, unknown> = { location: { hash }, addEventListener: on, postMessage: () => undefined };
    window.parent = framed ? parent : window;
    vm.runInNewContext(EMBED_FRAME_SCRIPT, { window, document: { documentElement, addEventListener: on } });
    const fire = (type: string, e: unknown = {}) => (handlers[type] ?? []).forEach((fn) => fn(e));
    return { posted, fire, parent, documentElement };
  }

  test("tells the host page its height with the secret, on load and when the host says ready", () => {
    const f = frame("#?secret=Ab3dE6gH9k");
    expect(f.documentElement.className).toBe("js");
    f.fire("load");
    expect(f.posted).toEqual([{ data: { message: "height", value: 322, secret: "Ab3dE6gH9k" }, origin: "*" }]);
    f.fire("message", { source: f.parent, data: { message: "ready", secret: "Ab3dE6gH9k" } });
    expect(f.posted).toHaveLength(2);
    f.fire("message", { source: f.parent, data: { message: "ready", secret: "wrong" } });
    f.fire("message", { source: {}, data: { message: "ready", secret: "Ab3dE6gH9k" } });
    expect(f.posted).toHaveLength(2);
  });

  test("a link click is handed to the host page instead of navigating the sandboxed frame", () => {
    const f = frame("#?secret=Ab3dE6gH9k");
    let prevented = false;
    const anchor = { href: `${SITE}/hello-embed/` };
    f.fire("click", { target: { closest: () => anchor }, button: 0, preventDefault: () => { prevented = true; } });
    expect(prevented).toBe(true);
    expect(f.posted).toEqual([{ data: { message: "link", value: `${SITE}/hello-embed/`, secret: "Ab3dE6gH9k" }, origin: "*" }]);
  });

  test("without a secret, or not in a frame, it posts nothing and links work as links", () => {
    for (const f of [frame(""), frame("#?secret=Ab3dE6gH9k", false)]) {
      f.fire("load");
      f.fire("click", { target: { closest: () => ({ href: "x" }) }, button: 0, preventDefault: () => { throw new Error("prevented"); } });
      expect(f.posted).toEqual([]);
    }
  });
});
