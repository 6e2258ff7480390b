// seo/v1 over REST and GraphQL against the whole system: scores stored per post and counted per
// bucket, the head of an address, indexing in batches, configuration and the per-user states,
// with Yoast's bodies, statuses and permissions.
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";
import { createUserWithPassword, type SignedInUser } from "../helpers/users.ts";

let system: TestSystem;
let editor: SignedInUser;
let author: SignedInUser;
let subscriber: SignedInUser;
const posts: Record<string, { id: number; link: string }> = {};

const goodBody = `<p>Garden tools make the work easy. However, you should choose them with care.</p><h2>Which garden tools to buy</h2>${
  Array(8).fill("<p>A spade digs the soil. For example, a rake levels the beds. Then a hoe removes weeds quickly. Also, gloves protect your hands.</p>").join("")
}<img src="https://example.test/wp-content/uploads/tools.jpg" alt="garden tools"><p><a href="https://example.test/sample-page/">Our shop</a> and <a href="https://other.org/">a guide</a>.</p>`;

async function createPost(key: string, body: Record<string, unknown>, path = "posts") {
  const r = await system.request("POST", `/wp-json/core/v2/${path}`, { auth: "admin", body: { status: "publish", ...body } });
  expect(r.status).toBe(201);
  posts[key] = { id: r.body.id, link: r.body.link };
  return posts[key];
}

const setSeo = (id: number, input: Record<string, unknown>, auth: Parameters<TestSystem["graphql"]>[2] = { auth: "admin" }) =>
  system.graphql<{ updatePostSeo: Record<string, any> }>(`mutation($id: Int!, $input: PostSeoInput!) { updatePostSeo(databaseId: $id, input: $input) {
    score readability scoreBucket readabilityBucket focusKeyphrase metaDescription readingTimeMinutes wordCount fleschReadingEase assessments { kind identifier score rating } } }`, { id, input }, auth);

beforeAll(async () => {
  system = await startTestSystem();
  editor = await createUserWithPassword(system, "seo-editor", ["editor"]);
  author = await createUserWithPassword(system, "seo-author", ["author"]);
  subscriber = await createUserWithPassword(system, "seo-subscriber", ["subscriber"]);
  await createPost("good", { title: "Garden tools for beginners", slug: "garden-tools", content: goodBody });
  await createPost("thin", { title: "Short note", slug: "short-note", content: "<p>Hi there.</p>" });
  await createPost("draft", { title: "Draft", slug: "draft-post", content: "<p>Not yet.</p>", status: "draft" });
}, 180_000);
afterAll(async () => { await system?.stop(); });

describe("Post.seo and the stored scores", () => {
  it("analyses a post from its content: a keyphrase gives an SEO score, readability is always scored", async () => {
    const none = await system.graphql<{ posts: { nodes: { seo: Record<string, any> }[] } }>(`query($id: Int!) { posts(where: { include: [$id] }) { nodes { seo { score readability scoreBucket readabilityBucket } } } }`, { id: posts.good.id });
    expect(none.errors).toBeUndefined();
    expect(none.data!.posts.nodes[0].seo).toEqual({ score: null, readability: 90, scoreBucket: "NOT_ANALYZED", readabilityBucket: "GOOD" });

    const set = await setSeo(posts.good.id, { focusKeyphrase: "garden tools", metaDescription: `Garden tools for every beginner: what to buy first and why. ${"x".repeat(80)}` });
    expect(set.errors).toBeUndefined();
    const seo = set.data!.updatePostSeo;
    expect(seo.focusKeyphrase).toBe("garden tools");
    expect(seo.score).toBeGreaterThanOrEqual(71);
    expect(seo.scoreBucket).toBe("GOOD");
    expect(seo.assessments.filter((a: any) => a.kind === "SEO").map((a: any) => a.identifier)).toEqual(expect.arrayContaining(["introductionKeyword", "keyphraseDensity", "keyphraseInSEOTitle", "slugKeyword", "metaDescriptionKeyword", "textLength", "internalLinks", "externalLinks", "imageKeyphrase"]));
    expect(seo.assessments.filter((a: any) => a.kind === "READABILITY").map((a: any) => a.identifier)).toEqual(expect.arrayContaining(["fleschReadingEase", "passiveVoice", "textTransitionWords", "textParagraphTooLong", "textSentenceLength", "subheadingsTooLong"]));
    expect(seo.readingTimeMinutes).toBe(2);
    expect(seo.fleschReadingEase).toBeGreaterThan(60);

    const thin = await setSeo(posts.thin.id, { focusKeyphrase: "garden tools" });
    expect(thin.data!.updatePostSeo.score).toBeLessThanOrEqual(40);
    expect(thin.data!.updatePostSeo.readability).toBe(30);
  });

  it("simultaneous first analyses of one post store one row", async () => {
    const fresh = await createPost("simultaneous", { title: "Simultaneous", content: "<p>Many readers at once. They all ask for the score.</p>" });
    const q = `query($id: Int!) { posts(where: { include: [$id] }) { nodes { seo { readability } } } }`;
    const answers = await Promise.all(Array.from({ length: 8 }, () => system.graphql<{ posts: { nodes: { seo: { readability: number } }[] } }>(q, { id: fresh.id })));
    expect(answers.map((a) => a.errors)).toEqual(Array(8).fill(undefined));
    expect(await system.db.prisma.seoIndexable.count({ where: { objectType: "post", objectId: fresh.id } })).toBe(1);
  });

  it("lists resolve every post's seo in one request, and pages get it too", async () => {
    const r = await system.graphql<{ posts: { nodes: { databaseId: number; seo: { score: number | null } }[] }; pages: { nodes: { seo: { readability: number } }[] } }>(
      "{ posts(perPage: 10) { nodes { databaseId seo { score } } } pages { nodes { seo { readability } } } }");
    expect(r.errors).toBeUndefined();
    const byId = new Map(r.data!.posts.nodes.map((n) => [n.databaseId, n.seo.score]));
    expect(byId.get(posts.good.id)).toBeGreaterThanOrEqual(71);
    expect(r.data!.pages.nodes.length).toBeGreaterThan(0);
  });

  it("a draft is analysed for those who may edit it, and invisible to visitors", async () => {
    const q = `query($id: Int!) { posts(where: { include: [$id], status: [ANY] }) { nodes { seo { readability } } } }`;
    const admin = await system.graphql<{ posts: { nodes: { seo: { readability: number } | null }[] } }>(q, { id: posts.draft.id }, { auth: "admin" });
    expect(admin.errors).toBeUndefined();
    expect(admin.data!.posts.nodes[0].seo!.readability).toBe(30);
    const set = await setSeo(posts.draft.id, { focusKeyphrase: "draft" });
    expect(set.errors).toBeUndefined();
    const visitor = await setSeo(posts.draft.id, { focusKeyphrase: "x" }, {});
    expect(visitor.errors?.[0].extensions?.code).toBe("rest_cannot_edit");
  });

  it("only those who may edit the post change its SEO settings", async () => {
    const anonymous = await setSeo(posts.good.id, { focusKeyphrase: "x" }, {});
    expect(anonymous.errors?.[0].extensions?.code).toBe("rest_cannot_edit");
    const byAuthor = await setSeo(posts.good.id, { focusKeyphrase: "x" }, { auth: author.auth });
    expect(byAuthor.errors?.[0].extensions?.code).toBe("rest_cannot_edit");
    const byEditor = await setSeo(posts.good.id, { focusKeyphrase: "garden tools" }, { auth: editor.auth });
    expect(byEditor.errors).toBeUndefined();
    const badCanonical = await setSeo(posts.good.id, { canonical: "javascript:alert(1)" });
    expect(badCanonical.errors?.[0].extensions?.code).toBe("rest_invalid_param");
  });
});

describe("seo_scores and readability_scores", () => {
  it("count published posts per bucket in Yoast's order, with view links", async () => {
    const r = await system.request("GET", "/wp-json/seo/v1/seo_scores?contentType=post&troubleshooting=true", { auth: "admin" });
    expect(r.status).toBe(200);
    expect(r.body.scores.map((s: any) => s.name)).toEqual(["good", "ok", "bad", "notAnalyzed"]);
    const good = r.body.scores[0];
    expect(good.ids.split(",").map(Number)).toContain(posts.good.id);
    expect(good.amount).toBe(good.ids.split(",").length);
    expect(r.body.scores[2].ids.split(",").map(Number)).toContain(posts.thin.id);
    expect(good.links.view).toBe("http://example.test/wp-admin/edit.php?post_status=publish&post_type=post&seo_filter=good");
    expect(r.body.scores[3].links.view).toMatch(/seo_filter=na$/);
    expect(r.body.cacheUsed).toBe(false);
    const all = r.body.scores.flatMap((s: any) => (s.ids ? s.ids.split(",").map(Number) : []));
    expect(all).not.toContain(posts.draft.id);

    const readability = await system.request("GET", "/wp-json/seo/v1/readability_scores?contentType=post&troubleshooting=true", { auth: "admin" });
    expect(readability.body.scores[0].ids.split(",").map(Number)).toContain(posts.good.id);
    expect(readability.body.scores[2].ids.split(",").map(Number)).toContain(posts.thin.id);
    expect(readability.body.scores[0].links.view).toMatch(/readability_filter=good$/);
  });

  it("a noindexed post leaves the SEO counts but not the readability counts", async () => {
    await setSeo(posts.thin.id, { isRobotsNoindex: true });
    const seo = await system.request("GET", "/wp-json/seo/v1/seo_scores?contentType=post&troubleshooting=true", { auth: "admin" });
    expect(seo.body.scores.flatMap((s: any) => (s.ids ? s.ids.split(",").map(Number) : []))).not.toContain(posts.thin.id);
    const readability = await system.request("GET", "/wp-json/seo/v1/readability_scores?contentType=post&troubleshooting=true", { auth: "admin" });
    expect(readability.body.scores[2].ids.split(",").map(Number)).toContain(posts.thin.id);
    await setSeo(posts.thin.id, { isRobotsNoindex: false });
  });

  it("are cached for 60 seconds per content type", async () => {
    const first = await system.request("GET", "/wp-json/seo/v1/seo_scores?contentType=page", { auth: "admin" });
    expect(first.body.cacheUsed).toBe(false);
    const second = await system.request("GET", "/wp-json/seo/v1/seo_scores?contentType=page", { auth: "admin" });
    expect(second.body).toMatchObject({ cacheUsed: true, queryTime: 0 });
    expect(second.body.scores).toEqual(first.body.scores);
  });

  it("answer Yoast's {error} bodies for bad content types, taxonomies and terms", async () => {
    const get = (q: string) => system.request("GET", `/wp-json/seo/v1/seo_scores?${q}`, { auth: "admin" });
    expect(await get("contentType=product").then((r) => [r.status, r.body])).toEqual([400, { error: "Invalid content type." }]);
    expect(await get("contentType=post&taxonomy=post_tag&term=1").then((r) => r.body)).toEqual({ error: "Invalid taxonomy." });
    expect(await get("contentType=post&term=1").then((r) => r.body)).toEqual({ error: "Term needs a provided taxonomy." });
    expect(await get("contentType=post&taxonomy=category").then((r) => r.body)).toEqual({ error: "Taxonomy needs a provided term." });
    expect(await get("contentType=post&taxonomy=category&term=999999").then((r) => r.body)).toEqual({ error: "Invalid term." });
    const missing = await system.request("GET", "/wp-json/seo/v1/seo_scores", { auth: "admin" });
    expect([missing.status, missing.body.code]).toEqual([400, "rest_missing_callback_param"]);
  });

  it("with a category, count only its posts and link with its slug", async () => {
    const r = await system.request("GET", "/wp-json/seo/v1/seo_scores?contentType=post&taxonomy=category&term=1&troubleshooting=1", { auth: "admin" });
    expect(r.status).toBe(200);
    expect(r.body.scores[0].links.view).toMatch(/&category_name=uncategorized$/);
    expect(r.body.scores[0].ids.split(",").map(Number)).toContain(posts.good.id);
  });

  it("need wpseo_manage_options", async () => {
    expect((await system.request("GET", "/wp-json/seo/v1/seo_scores?contentType=post")).status).toBe(401);
    const r = await system.request("GET", "/wp-json/seo/v1/readability_scores?contentType=post", { auth: editor.auth });
    expect([r.status, r.body.code]).toEqual([403, "rest_forbidden"]);
  });

  it("statistics: published posts per SEO rank, for any signed-in user", async () => {
    const r = await system.request("GET", "/wp-json/seo/v1/statistics", { auth: "admin" });
    expect(r.status).toBe(200);
    expect(r.body.seo_scores.find((s: any) => s.seo_rank === "good").count).toBeGreaterThanOrEqual(1);
    expect(r.body.seo_scores.every((s: any) => s.count > 0)).toBe(true);
    expect(r.body.seo_scores.find((s: any) => s.seo_rank === "good").link).toBe("http://example.test/wp-admin/edit.php?post_status=publish&#038;post_type=post&#038;seo_filter=good");
    expect(typeof r.body.header).toBe("string");
    const own = await system.request("GET", "/wp-json/seo/v1/statistics", { auth: subscriber.auth });
    expect(own.status).toBe(200);
    expect(own.body.seo_scores).toEqual([]);
    expect((await system.request("GET", "/wp-json/seo/v1/statistics")).status).toBe(401);
  });
});

describe("get_head", () => {
  it("builds a post's head: title, robots, canonical, Open Graph, Twitter and the schema graph", async () => {
    const r = await system.request("GET", `/wp-json/seo/v1/get_head?url=${encodeURIComponent(posts.good.link)}`);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe(200);
    const json = r.body.json;
    expect(json.title).toBe("Garden tools for beginners - Partner Site");
    expect(json.description).toMatch(/^Garden tools for every beginner/);
    expect(json.robots).toEqual({ index: "index", follow: "follow", "max-snippet": "max-snippet:-1", "max-image-preview": "max-image-preview:large", "max-video-preview": "max-video-preview:-1" });
    expect(json.canonical).toBe(posts.good.link);
    expect(json).toMatchObject({ og_locale: "en_US", og_type: "article", og_url: posts.good.link, og_site_name: "Partner Site", author: "admin", twitter_card: "summary_large_image" });
    expect(json.article_published_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect(json.twitter_misc).toEqual({ "Written by": "admin", "Est. reading time": "2 minutes" });
    const types = json.schema["@graph"].map((n: any) => n["@type"]);
    expect(types).toEqual(["Article", "WebPage", "BreadcrumbList", "WebSite", "Person"]);
    expect(r.body.html).toContain("<title>Garden tools for beginners - Partner Site</title>");
    expect(r.body.html).toContain(`<link rel="canonical" href="${posts.good.link}" />`);
    expect(r.body.html).toContain('<script type="application/ld+json" class="yoast-schema-graph">');
  });

  it("a featured image becomes og:image with its size and type, the primary image of the graph, and its file size is known", async () => {
    const png = await sharp({ create: { width: 1200, height: 630, channels: 3, background: "#3a7" } }).png().toBuffer();
    const media = await system.request("POST", "/wp-json/core/v2/media", { auth: "admin", raw: png, headers: { "content-type": "image/png", "content-disposition": 'attachment; filename="tools.png"' } });
    expect(media.status).toBe(201);
    await system.request("POST", `/wp-json/core/v2/posts/${posts.thin.id}`, { auth: "admin", body: { featured_media: media.body.id } });
    const r = await system.request("GET", `/wp-json/seo/v1/get_head?url=${encodeURIComponent(posts.thin.link)}`);
    expect(r.body.json.og_image).toEqual([{ width: 1200, height: 630, url: media.body.source_url, type: "image/png" }]);
    expect(r.body.html).toContain(`<meta property="og:image" content="${media.body.source_url}" />`);
    const graph = r.body.json.schema["@graph"];
    expect(graph.find((n: any) => n["@type"] === "ImageObject")).toMatchObject({ "@id": `${posts.thin.link}#primaryimage`, url: media.body.source_url, width: 1200, height: 630 });
    const size = await system.request("GET", `/wp-json/seo/v1/file_size?url=${encodeURIComponent(media.body.source_url)}`, { auth: "admin" });
    expect([size.status, size.body]).toEqual([200, { type: "success", size_in_bytes: png.length }]);
    expect((await system.request("GET", `/wp-json/seo/v1/file_size?url=${encodeURIComponent(media.body.source_url)}`, { auth: editor.auth })).status).toBe(403);
  });

  it("the same head is Post.seo.head in GraphQL", async () => {
    const g = await system.graphql<{ posts: { nodes: { seo: { head: { json: any; status: number } } }[] } }>(`query($id: Int!) { posts(where: { include: [$id] }) { nodes { seo { head { json status } } } } }`, { id: posts.good.id });
    expect(g.data!.posts.nodes[0].seo.head.json.title).toBe("Garden tools for beginners - Partner Site");
  });

  it("noindex drops the max-* directives and the canonical", async () => {
    await setSeo(posts.thin.id, { isRobotsNoindex: true });
    const r = await system.request("GET", `/wp-json/seo/v1/get_head?url=${encodeURIComponent(posts.thin.link)}`);
    expect(r.body.json.robots).toEqual({ index: "noindex", follow: "follow" });
    expect(r.body.json.canonical).toBeUndefined();
    await setSeo(posts.thin.id, { isRobotsNoindex: false });
  });

  it("the home page, an unknown address (404 head) and a bad URL", async () => {
    const home = await system.request("GET", `/wp-json/seo/v1/get_head?url=${encodeURIComponent("http://example.test/")}`);
    expect(home.status).toBe(200);
    expect(home.body.json.og_type).toBe("website");
    expect(home.body.json.schema["@graph"][0]["@type"]).toBe("CollectionPage");
    const missing = await system.request("GET", `/wp-json/seo/v1/get_head?url=${encodeURIComponent("http://example.test/no-such-thing/")}`);
    expect([missing.status, missing.body.status]).toEqual([404, 404]);
    expect(missing.body.json.title).toBe("Page not found - Partner Site");
    expect(missing.body.json.robots).toEqual({ index: "noindex", follow: "follow" });
    const bad = await system.request("GET", "/wp-json/seo/v1/get_head?url=not%20a%20url");
    expect([bad.status, bad.body.code]).toEqual([400, "rest_invalid_param"]);
    expect((await system.request("GET", "/wp-json/seo/v1/get_head")).body.code).toBe("rest_missing_callback_param");
  });

  it("an author archive is a ProfilePage", async () => {
    const r = await system.request("GET", `/wp-json/seo/v1/get_head?url=${encodeURIComponent("http://example.test/author/admin/")}`);
    expect(r.status).toBe(200);
    expect(r.body.json).toMatchObject({ title: "admin, Author at Partner Site", og_type: "profile", canonical: "http://example.test/author/admin/" });
    expect(r.body.json.schema["@graph"].map((n: any) => n["@type"])).toEqual(["ProfilePage", "BreadcrumbList", "WebSite", "Person"]);
  });

  it("a category archive", async () => {
    const r = await system.request("GET", `/wp-json/seo/v1/get_head?url=${encodeURIComponent("http://example.test/category/uncategorized/")}`);
    expect(r.status).toBe(200);
    expect(r.body.json.title).toBe("Uncategorized Archives - Partner Site");
  });
});

describe("indexing", () => {
  it("indexes in batches of 25 until next_url is false, with progress", async () => {
    for (let i = 0; i < 27; i++) await createPost(`bulk${i}`, { title: `Bulk ${i}`, content: `<p>Bulk post number ${i}. It has a few words.</p>` });
    const progress = await system.graphql<{ seoIndexingProgress: { total: number; remaining: number } }>("{ seoIndexingProgress { total indexed remaining } }", {}, { auth: "admin" });
    expect(progress.data!.seoIndexingProgress.remaining).toBeGreaterThanOrEqual(27);
    const prepare = await system.request("POST", "/wp-json/seo/v1/indexing/prepare", { auth: "admin" });
    expect(prepare.body).toEqual({ objects: [], next_url: false });
    const first = await system.request("POST", "/wp-json/seo/v1/indexing/posts", { auth: "admin" });
    expect(first.status).toBe(200);
    expect(first.body.objects).toHaveLength(25);
    expect(first.body.next_url).toBe("http://example.test/wp-json/seo/v1/indexing/posts");
    let next = first.body.next_url;
    let rounds = 1;
    while (next) {
      const r = await system.request("POST", "/wp-json/seo/v1/indexing/posts", { auth: "admin" });
      next = r.body.next_url;
      rounds++;
      expect(rounds).toBeLessThan(5);
    }
    const after = await system.graphql<{ seoIndexingProgress: { remaining: number; indexed: number; total: number } }>("{ seoIndexingProgress { total indexed remaining } }", {}, { auth: "admin" });
    expect(after.data!.seoIndexingProgress.remaining).toBe(0);
    expect(after.data!.seoIndexingProgress.indexed).toBe(after.data!.seoIndexingProgress.total);
    // Indexed posts are counted: the bulk posts have no keyphrase, so they are not analysed for SEO.
    const scores = await system.request("GET", "/wp-json/seo/v1/seo_scores?contentType=post&troubleshooting=true", { auth: "admin" });
    expect(scores.body.scores[3].ids.split(",").map(Number)).toContain(posts.bulk0.id);
    expect((await system.request("POST", "/wp-json/seo/v1/indexables-complete", { auth: "admin" })).status).toBe(404);
    expect((await system.request("POST", "/wp-json/seo/v1/indexing/indexables-complete", { auth: "admin" })).body).toEqual({ objects: [], next_url: false });
    expect((await system.request("POST", "/wp-json/seo/v1/indexing/complete", { auth: "admin" })).body).toEqual({ objects: [], next_url: false });
  });

  it("a list of posts with seo costs one content fetch, however long the list", async () => {
    const original = globalThis.fetch;
    let contentReads = 0;
    globalThis.fetch = ((input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
      if (typeof init?.body === "string" && init.body.includes("include: $ids, status: $status")) contentReads++;
      return original(input, init);
    }) as typeof fetch;
    try {
      const started = performance.now();
      const r = await system.graphql<{ posts: { nodes: { seo: { readability: number } }[] } }>("{ posts(perPage: 30) { nodes { seo { readability wordCount } } } }");
      const took = performance.now() - started;
      expect(r.errors).toBeUndefined();
      expect(r.data!.posts.nodes.length).toBe(30);
      expect(contentReads).toBe(1);
      console.log(`30 posts with seo: ${took.toFixed(0)} ms, ${contentReads} content fetch`);
    } finally {
      globalThis.fetch = original;
    }
  });

  it("a post changed after its analysis is indexed again, and its bucket moves", async () => {
    const before = await system.request("GET", "/wp-json/seo/v1/readability_scores?contentType=post&troubleshooting=true", { auth: "admin" });
    expect(before.body.scores[2].ids.split(",").map(Number)).toContain(posts.thin.id);
    await new Promise((resolve) => setTimeout(resolve, 1100)); // modified dates have second precision
    const updated = await system.request("POST", `/wp-json/core/v2/posts/${posts.thin.id}`, { auth: "admin", body: { content: goodBody } });
    expect(updated.status).toBe(200);
    const batch = await system.request("POST", "/wp-json/seo/v1/indexing/posts", { auth: "admin" });
    expect(batch.body.objects.map((o: any) => o.object_id)).toEqual([posts.thin.id]);
    expect(batch.body.next_url).toBe(false);
    const after = await system.request("GET", "/wp-json/seo/v1/readability_scores?contentType=post&troubleshooting=true", { auth: "admin" });
    expect(after.body.scores[0].ids.split(",").map(Number)).toContain(posts.thin.id);
    expect((await system.request("POST", "/wp-json/seo/v1/indexing/posts", { auth: "admin" })).body.objects).toEqual([]);
  });

  it("the Allow header follows Yoast's capabilities", async () => {
    expect((await system.request("GET", "/wp-json/seo/v1/workouts", { auth: editor.auth })).headers.get("allow")).toBe("GET, POST");
    expect((await system.request("OPTIONS", "/wp-json/seo/v1/seo_scores", { auth: editor.auth })).headers.get("allow") ?? "").toBe("");
    expect((await system.request("OPTIONS", "/wp-json/seo/v1/seo_scores", { auth: "admin" })).headers.get("allow")).toBe("GET");
  });

  it("terms, general pages, archives and links", async () => {
    const terms = await system.request("POST", "/wp-json/seo/v1/indexing/terms", { auth: "admin" });
    expect(terms.body.objects.map((o: any) => o.object_sub_type)).toContain("category");
    expect(terms.body.next_url).toBe(false);
    expect((await system.request("POST", "/wp-json/seo/v1/indexing/terms", { auth: "admin" })).body.objects).toEqual([]);
    const general = await system.request("POST", "/wp-json/seo/v1/indexing/general", { auth: "admin" });
    expect(general.body.objects.map((o: any) => o.object_type)).toEqual(["home-page", "date-archive", "system-page", "system-page"]);
    expect((await system.request("POST", "/wp-json/seo/v1/indexing/post-type-archives", { auth: "admin" })).body).toEqual({ objects: [], next_url: false });
    let links = await system.request("POST", "/wp-json/seo/v1/link-indexing/posts", { auth: "admin" });
    expect(links.body.objects).toHaveLength(5);
    while (links.body.next_url) links = await system.request("POST", "/wp-json/seo/v1/link-indexing/posts", { auth: "admin" });
    const meta = await system.request("GET", `/wp-json/seo/v1/meta/search?post_id=${posts.good.id}&query=_yoast_wpseo_focus`, { auth: "admin" });
    expect(meta.body).toEqual({ meta: [{ key: "_yoast_wpseo_focuskw", value: "garden tools" }] });
  });

  it("needs edit_posts", async () => {
    expect((await system.request("POST", "/wp-json/seo/v1/indexing/posts")).status).toBe(401);
    expect((await system.request("POST", "/wp-json/seo/v1/indexing/posts", { auth: subscriber.auth })).status).toBe(403);
  });
});

describe("configuration", () => {
  it("site representation is saved, shows in the head's schema graph, and is checked", async () => {
    const r = await system.request("POST", "/wp-json/seo/v1/configuration/site_representation", { auth: "admin", body: { company_or_person: "company", company_name: "Acme Mail Security", company_logo: "https://example.test/logo.png", description: "Safe email" } });
    expect([r.status, r.body]).toEqual([200, { success: true, status: 200 }]);
    const head = await system.request("GET", `/wp-json/seo/v1/get_head?url=${encodeURIComponent(posts.good.link)}`);
    const org = head.body.json.schema["@graph"].find((n: any) => n["@type"] === "Organization");
    expect(org).toMatchObject({ name: "Acme Mail Security", "@id": "http://example.test/#organization" });
    const site = head.body.json.schema["@graph"].find((n: any) => n["@type"] === "WebSite");
    expect(site.description).toBe("Safe email");
    const bad = await system.request("POST", "/wp-json/seo/v1/configuration/site_representation", { auth: "admin", body: { company_or_person: "company", company_logo: "not a url" } });
    expect([bad.status, bad.body]).toEqual([500, { success: false, status: 500, error: "Could not save some options in the database", failures: ["company_logo"] }]);
    const wrongEnum = await system.request("POST", "/wp-json/seo/v1/configuration/site_representation", { auth: "admin", body: { company_or_person: "robot" } });
    expect([wrongEnum.status, wrongEnum.body.code]).toEqual([400, "rest_invalid_param"]);
    expect((await system.request("POST", "/wp-json/seo/v1/configuration/site_representation", { auth: editor.auth, body: { company_or_person: "person" } })).status).toBe(403);
  });

  it("social profiles answer inside `json`, with the fields that failed", async () => {
    const ok = await system.request("POST", "/wp-json/seo/v1/configuration/social_profiles", { auth: "admin", body: { facebook_site: "https://facebook.com/acme", twitter_site: "https://x.com/acme_mail", other_social_urls: ["https://linkedin.com/company/acme"] } });
    expect(ok.body).toEqual({ json: { success: true, status: 200 } });
    const head = await system.request("GET", `/wp-json/seo/v1/get_head?url=${encodeURIComponent(posts.good.link)}`);
    expect(head.body.json.twitter_site).toBe("@acme_mail");
    expect(head.body.json.article_publisher).toBe("https://facebook.com/acme");
    const bad = await system.request("POST", "/wp-json/seo/v1/configuration/social_profiles", { auth: "admin", body: { facebook_site: "nope", other_social_urls: ["https://ok.example", "bad url"] } });
    expect([bad.status, bad.body]).toEqual([200, { json: { success: false, status: 200, error: "Could not save some options in the database", failures: ["facebook_site", "other_social_urls-1"] } }]);
  });

  it("tracking, finished steps and the configuration state", async () => {
    expect((await system.request("POST", "/wp-json/seo/v1/configuration/enable_tracking", { auth: "admin", body: { tracking: true } })).body).toEqual({ success: true, status: 200 });
    expect((await system.request("POST", "/wp-json/seo/v1/configuration/enable_tracking", { auth: "admin", body: {} })).body.code).toBe("rest_missing_callback_param");
    expect((await system.request("GET", "/wp-json/seo/v1/configuration/get_configuration_state", { auth: "admin" })).body).toEqual({ success: true, status: 200, data: [] });
    expect((await system.request("POST", "/wp-json/seo/v1/configuration/save_configuration_state", { auth: "admin", body: { finishedSteps: ["siteRepresentation", "socialProfiles"] } })).body).toEqual({ success: true, status: 200 });
    expect((await system.request("GET", "/wp-json/seo/v1/configuration/get_configuration_state", { auth: "admin" })).body.data).toEqual(["siteRepresentation", "socialProfiles"]);
    const notArray = await system.request("POST", "/wp-json/seo/v1/configuration/save_configuration_state", { auth: "admin", body: { finishedSteps: { a: 1 } } });
    expect(notArray.status).toBe(400);
  });

  it("check_capability answers 200 with the verdict in the body, for those who manage SEO", async () => {
    expect((await system.request("GET", `/wp-json/seo/v1/configuration/check_capability?user_id=${editor.id}`, { auth: "admin" })).body).toEqual({ success: true, status: 200 });
    expect((await system.request("GET", "/wp-json/seo/v1/configuration/check_capability?user_id=1", { auth: "admin" })).body).toEqual({ success: true, status: 200 });
    const refused = await system.request("GET", `/wp-json/seo/v1/configuration/check_capability?user_id=${editor.id}`, { auth: editor.auth });
    expect([refused.status, refused.body.code]).toEqual([403, "rest_forbidden"]);
  });
});

describe("per-user and site states", () => {
  it("introductions: known ids are stored per user, unknown ones answer 400 []", async () => {
    const r = await system.request("POST", "/wp-json/seo/v1/introductions/google-docs-addon-upsell/seen", { auth: editor.auth, body: {} });
    expect([r.status, r.body]).toEqual([200, { json: { success: true } }]);
    const unknown = await system.request("POST", "/wp-json/seo/v1/introductions/no-such-intro/seen", { auth: editor.auth });
    expect([unknown.status, unknown.body]).toEqual([400, []]);
    expect((await system.request("POST", "/wp-json/seo/v1/introductions/bad%20id/seen", { auth: editor.auth })).status).toBe(404);
    expect((await system.request("POST", "/wp-json/seo/v1/introductions/google-docs-addon-upsell/seen", { auth: subscriber.auth })).status).toBe(403);
  });

  it("video embed permission is per user", async () => {
    expect((await system.request("GET", "/wp-json/seo/v1/video-embed-permission", { auth: editor.auth })).body).toEqual({ json: { value: false } });
    expect((await system.request("POST", "/wp-json/seo/v1/video-embed-permission", { auth: editor.auth, body: {} })).body).toEqual({ json: { success: true } });
    expect((await system.request("GET", "/wp-json/seo/v1/video-embed-permission", { auth: editor.auth })).body).toEqual({ json: { value: true } });
    expect((await system.request("GET", "/wp-json/seo/v1/video-embed-permission", { auth: "admin" })).body).toEqual({ json: { value: false } });
    await system.request("POST", "/wp-json/seo/v1/video-embed-permission", { auth: editor.auth, body: { value: false } });
    expect((await system.request("GET", "/wp-json/seo/v1/video-embed-permission", { auth: editor.auth })).body).toEqual({ json: { value: false } });
  });

  it("alerts: only dismissable alerts, remembered per user", async () => {
    expect((await system.request("POST", "/wp-json/seo/v1/alerts/dismiss", { auth: editor.auth, body: { key: "webinar-promo-notification" } })).body).toEqual({ success: true, status: 200 });
    const bad = await system.request("POST", "/wp-json/seo/v1/alerts/dismiss", { auth: editor.auth, body: { key: "made-up" } });
    expect([bad.status, bad.body]).toEqual([400, { success: false, status: 400 }]);
    const dismissed = await system.graphql<{ seoDismissedAlerts: string[] }>("{ seoDismissedAlerts }", {}, { auth: editor.auth });
    expect(dismissed.data!.seoDismissedAlerts).toEqual(["webinar-promo-notification"]);
  });

  it("new content types: unknown names are refused, known ones answered", async () => {
    expect((await system.request("POST", "/wp-json/seo/v1/new-content-type-visibility/dismiss-post-type", { auth: editor.auth, body: { postTypeName: "post" } })).body).toEqual({ message: "Post type is not new.", success: true, status: 200 });
    expect((await system.request("POST", "/wp-json/seo/v1/new-content-type-visibility/dismiss-taxonomy", { auth: editor.auth, body: { taxonomyName: "nope" } })).status).toBe(400);
  });

  it("integrations are switched by name", async () => {
    expect((await system.request("POST", "/wp-json/seo/v1/integrations/set_active", { auth: "admin", body: { integration: "semrush", active: false } })).body).toEqual({ json: { success: true, status: 200 } });
    expect((await system.request("POST", "/wp-json/seo/v1/integrations/set_active", { auth: "admin", body: { integration: "nothing", active: false } })).body).toEqual({ json: { success: false, status: 500, error: "Could not save the option in the database" } });
    expect((await system.request("POST", "/wp-json/seo/v1/integrations/set_active", { auth: "admin", body: { integration: "semrush", active: "maybe" } })).status).toBe(400);
  });

  it("workouts persist", async () => {
    expect((await system.request("GET", "/wp-json/seo/v1/workouts", { auth: editor.auth })).body).toEqual({ json: { cornerstone: { finishedSteps: [] }, orphaned: { finishedSteps: [] } } });
    const saved = await system.request("POST", "/wp-json/seo/v1/workouts", { auth: editor.auth, body: { workouts: { cornerstone: { finishedSteps: ["chooseCornerstones", "checkLinks"] } } } });
    expect(saved.body.json.cornerstone.finishedSteps).toEqual(["chooseCornerstones", "checkLinks"]);
    expect((await system.request("GET", "/wp-json/seo/v1/workouts", { auth: editor.auth })).body.json.cornerstone.finishedSteps).toEqual(["chooseCornerstones", "checkLinks"]);
    expect((await system.request("GET", "/wp-json/seo/v1/workouts", { auth: author.auth })).status).toBe(403);
  });

  it("importers: none enabled (404), and only for those who may activate plugins", async () => {
    const r = await system.request("POST", "/wp-json/seo/v1/import/aioseo/posts", { auth: "admin" });
    expect([r.status, r.body.code, r.body.message]).toEqual([404, "rest_no_route", "Requested importer not found"]);
    expect((await system.request("POST", "/wp-json/seo/v1/import/aioseo/posts", { auth: editor.auth })).status).toBe(403);
  });

  it("available posts, file size and meta search", async () => {
    const pages = await system.request("GET", "/wp-json/seo/v1/available_posts?search=Sample", { auth: "admin" });
    expect(pages.body.map((p: any) => p.slug)).toEqual(["sample-page"]);
    expect((await system.request("GET", "/wp-json/seo/v1/available_posts?postType=product", { auth: "admin" })).status).toBe(400);
    const external = await system.request("GET", `/wp-json/seo/v1/file_size?url=${encodeURIComponent("https://other.org/a.jpg")}`, { auth: "admin" });
    expect([external.status, external.body]).toEqual([404, { type: "failure", response: "Cannot get the size of https://other.org/a.jpg because it is hosted externally." }]);
    const absent = await system.request("GET", `/wp-json/seo/v1/file_size?url=${encodeURIComponent("http://example.test/wp-content/uploads/../../etc/passwd")}`, { auth: "admin" });
    expect(absent.status).toBe(404);
    expect((await system.request("GET", "/wp-json/seo/v1/meta/search", { auth: "admin" })).status).toBe(403);
    expect((await system.request("GET", `/wp-json/seo/v1/meta/search?post_id=${posts.good.id}`, { auth: author.auth })).status).toBe(403);
  });

  it("the routes are in the index with Yoast's arguments", async () => {
    const r = await system.request("GET", "/wp-json/seo/v1");
    expect(r.status).toBe(200);
    const routes = r.body.routes;
    expect(Object.keys(routes)).toEqual(expect.arrayContaining(["/seo/v1/get_head", "/seo/v1/seo_scores", "/seo/v1/indexing/posts", "/seo/v1/workouts", "/seo/v1/rank-tracker/keyphrases/untrack", "/seo/v1/introductions/(?P<introduction_id>[\\w-]+)/seen"]));
    expect(routes["/seo/v1/ai_generator/get_suggestions"].endpoints[0].args.platform.enum).toEqual(["Google", "Facebook", "Twitter"]);
  });
});
