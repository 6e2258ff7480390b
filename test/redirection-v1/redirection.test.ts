// redirection/v1: the Redirection plugin's routes over REST and GraphQL, redirects served by the
// router (codes, targets, query modes, regex, hit counts, logs), exports and imports.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { redirectPassClient } from "../../router/redirects.ts";
import { redirectionEnvironment, resetRedirectionEnvironment } from "../../subgraphs/extensions/redirection/environment.ts";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";

let system: TestSystem;
const NOW = new Date("2024-01-05T10:41:00Z");
const R = "/wp-json/redirection/v1";

beforeAll(async () => {
  system = await startTestSystem();
  redirectionEnvironment.now = () => NOW;
});
afterAll(async () => {
  resetRedirectionEnvironment();
  await system?.stop();
});

const admin = (method: string, path: string, body?: unknown) => system.request(method, `${R}${path}`, { auth: "admin", ...(body !== undefined ? { body } : {}) });

/** A site request without following redirects. */
async function visit(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(system.url + path, { redirect: "manual", headers });
  return { status: response.status, location: response.headers.get("location"), headers: response.headers, text: await response.text() };
}

async function createRule(body: Record<string, unknown>): Promise<Record<string, any>> {
  const created = await admin("POST", "/redirect", { group_id: 1, match_type: "url", action_type: "url", action_code: 301, ...body, filterBy: { url: String(body.url) }, per_page: 200 });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const found = (created.body.items as Record<string, any>[]).filter((i) => i.url === (body.regex ? body.url : decodeURIComponent(String(body.url))));
  return found[found.length - 1];
}

async function ruleById(id: number): Promise<Record<string, any>> {
  const list = await admin("GET", `/redirect?filterBy[id]=${id}`);
  return list.body.items[0];
}

afterEach(() => { redirectionEnvironment.now = () => NOW; });

describe("routes", () => {
  it("lists the default groups and creates a group, answering the list", async () => {
    const list = await admin("GET", "/group?orderby=id&direction=asc");
    expect(list.status).toBe(200);
    expect(list.body.items[0]).toEqual({ id: 1, name: "Redirections", redirects: expect.any(Number), module_id: 1, moduleName: "WordPress", enabled: true, default: true });
    expect(list.body.items[1]).not.toHaveProperty("default");
    const created = await admin("POST", "/group", { name: "<b>Apache</b> rules", moduleId: 2, filterBy: { module: 2 } });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ items: [{ id: expect.any(Number), name: "Apache rules", module_id: 2, moduleName: "Apache", enabled: true, redirects: 0 }], total: 1 });
    const bad = await admin("POST", "/group", { name: "x", moduleId: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("redirect_group_invalid");
    expect(bad.body.data.status).toBe(400);
    expect(typeof bad.body.data.error_code).toBe("number");
    const missing = await admin("POST", "/group", { moduleId: 1 });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe("rest_missing_callback_param");
    const badModule = await admin("POST", "/group", { name: "x", moduleId: 4 });
    expect(badModule.body.code).toBe("rest_invalid_param");
  });

  it("creates a rule with the plugin's normalisation and updates it", async () => {
    const rule = await createRule({ url: "/Über/Page/", action_data: { url: "/target" }, title: " <i>Hello</i> " });
    expect(rule).toMatchObject({
      url: "/Über/Page/", match_url: "/%c3%9cber/page", action_code: 301, action_type: "url", action_data: { url: "/target" }, match_type: "url",
      title: "Hello", hits: 0, regex: false, group_id: 1, last_access: "-", enabled: true,
      match_data: { source: { flag_query: "exact", flag_case: true, flag_trailing: true, flag_regex: false } },
    });
    const updated = await admin("POST", `/redirect/${rule.id}`, { url: "/renamed", action_type: "error", action_code: 999, match_type: "url", group_id: 1 });
    expect(updated.status).toBe(200);
    expect(updated.body.item).toMatchObject({ id: rule.id, url: "/renamed", action_type: "error", action_code: 404, action_data: null });
    const missing = await admin("POST", "/redirect/999999", { url: "/x" });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: "redirect_update_failed", message: "Invalid redirect details", data: { status: 400 } });
    const badGroup = await admin("POST", "/redirect", { url: "/y", group_id: 999, action_type: "url", match_type: "url" });
    expect(badGroup.body).toMatchObject({ code: "redirect", message: "Invalid group when creating redirect" });
    const badMatch = await admin("POST", "/redirect", { url: "/y", group_id: 1, action_type: "url", match_type: "nope" });
    expect(badMatch.body.message).toBe("Invalid redirect matcher");
  });

  it("validates the list parameters and refuses visitors", async () => {
    expect((await admin("GET", "/redirect?per_page=4")).body.code).toBe("rest_invalid_param");
    expect((await admin("GET", "/redirect?per_page=201")).status).toBe(400);
    expect((await admin("GET", "/redirect?page=-1")).status).toBe(400);
    expect((await admin("GET", "/redirect?orderby=name")).status).toBe(400);
    const badFilter = await admin("GET", "/redirect?filterBy[nope]=1");
    expect(badFilter.status).toBe(400);
    expect(JSON.stringify(badFilter.body)).toContain("Filter type is not supported: nope");
    const anonymous = await system.request("GET", `${R}/redirect`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe("rest_forbidden");
    const paged = await admin("GET", "/redirect?per_page=5&page=0&orderby=id&direction=asc");
    expect(paged.status).toBe(200);
    expect(typeof paged.body.total).toBe("number");
  });

  it("bulk-disables, resets and deletes; an unknown id fails after the earlier ones", async () => {
    const a = await createRule({ url: "/bulk-a", action_data: { url: "/x" } });
    const b = await createRule({ url: "/bulk-b", action_data: { url: "/x" } });
    const disabled = await admin("POST", "/bulk/redirect/disable", { items: [String(a.id), b.id], filterBy: { url: "bulk-" } });
    expect(disabled.body.items.map((i: { enabled: boolean }) => i.enabled)).toEqual([false, false]);
    const failed = await admin("POST", "/bulk/redirect/enable", { items: [a.id, 999999, b.id] });
    expect(failed.status).toBe(400);
    expect(failed.body.code).toBe("redirect_bulk_failed");
    expect((await ruleById(a.id)).enabled).toBe(true);
    expect((await ruleById(b.id)).enabled).toBe(false);
    const deleted = await admin("POST", "/bulk/redirect/delete", { global: true, filterBy: { url: "bulk-" } });
    expect(deleted.body.total).toBe(0);
  });

  it("answers settings, plugin status and the GraphQL field of the same data", async () => {
    const settings = await admin("GET", "/setting");
    expect(settings.status).toBe(200);
    expect(settings.body.settings).toMatchObject({ expire_redirect: 7, redirect_cache: 1, flag_case: true, flag_trailing: true });
    expect(settings.body.groups[0]).toMatchObject({ label: "WordPress", value: expect.arrayContaining([{ label: "Redirections", value: 1 }]) });
    const saved = await admin("POST", "/setting", { expire_redirect: 99, redirect_cache: 5, ip_logging: 1, ip_headers: ["HTTP_X_FORWARDED_FOR", "BOGUS"] });
    expect(saved.body.settings).toMatchObject({ expire_redirect: 60, redirect_cache: 1, ip_logging: 1, ip_headers: ["HTTP_X_FORWARDED_FOR"] });
    const plugin = await admin("GET", "/plugin");
    expect(plugin.body.debug.database).toEqual({ current: "4.2", latest: "4.2" });
    expect((await admin("DELETE", "/plugin/test")).body).toEqual({ success: true });
    const graph = await system.graphql<{ redirects: { total: number } }>("{ redirects(list: { perPage: 5 }) { total } }", {}, { auth: "admin" });
    expect(graph.errors).toBeUndefined();
    expect(graph.data!.redirects.total).toBeGreaterThan(0);
    const refused = await system.graphql("{ redirects { total } }");
    expect(refused.errors?.[0]?.extensions?.code).toBe("rest_forbidden");
  });
});

describe("serving redirects", () => {
  it("redirects with the code, target and headers, counts the hit and logs it with the injected clock and IP", async () => {
    const rule = await createRule({ url: "/old-page", action_data: { url: "/new-page" } });
    const response = await visit("/OLD-page/", { "x-forwarded-for": "203.0.113.9", "user-agent": "test-agent" });
    expect(response.status).toBe(301);
    expect(response.location).toBe("/new-page");
    expect(response.headers.get("x-redirect-by")).toBe("redirection");
    expect(response.headers.get("cache-control")).toBe("max-age=3600");
    expect(response.headers.get("expires")).toBe("Fri, 05 Jan 2024 11:41:00 GMT");
    const after = await ruleById(rule.id);
    expect(after.hits).toBe(1);
    expect(after.last_access).toBe("January 5, 2024");
    const log = await admin("GET", `/log?filterBy[url-exact]=/OLD-page/`);
    expect(log.body.items[0]).toEqual({
      id: expect.any(Number), created: "January 5, 2024", created_time: "10:41 am", url: "/OLD-page/", agent: "test-agent", referrer: "",
      domain: "http://127.0.0.1", ip: "203.0.113.9", http_code: 301, request_method: "GET", request_data: "", sent_to: "/new-page",
      redirection_id: rule.id, redirect_by_slug: "redirection", redirect_by: "Redirection",
    });
  });

  it("counts every one of many simultaneous hits", async () => {
    const rule = await createRule({ url: "/busy", action_data: { url: "/calm" } });
    const results = await Promise.all(Array.from({ length: 25 }, () => visit("/busy")));
    expect(results.every((r) => r.status === 301)).toBe(true);
    expect((await ruleById(rule.id)).hits).toBe(25);
  });

  it("honours the query modes exact, ignore and pass", async () => {
    await createRule({ url: "/q-exact?a=1", action_data: { url: "/exact" }, match_data: { source: { flag_query: "exact" } } });
    await createRule({ url: "/q-ignore?a=1", action_data: { url: "/ignored" }, match_data: { source: { flag_query: "ignore" } } });
    await createRule({ url: "/q-pass", action_data: { url: "/passed?keep=1#top" }, match_data: { source: { flag_query: "pass" } } });
    expect((await visit("/q-exact?a=1")).location).toBe("/exact");
    expect((await visit("/q-exact?a=1&b=2")).status).toBe(404);
    expect((await visit("/q-exact")).status).toBe(404);
    expect((await visit("/q-ignore?b=2&a=1")).location).toBe("/ignored");
    expect((await visit("/q-ignore?b=2")).status).toBe(404);
    expect((await visit("/q-pass?x=1&keep=2&flag")).location).toBe("/passed?keep=1&x=1&flag#top");
  });

  it("substitutes regex groups and respects case and trailing-slash flags", async () => {
    await createRule({ url: "^/blog/(\\d+)/(.*)$", regex: 1, action_data: { url: "/posts/$2?id=$1" }, action_code: 302 });
    const hit = await visit("/blog/42/hello world");
    expect(hit.status).toBe(302);
    expect(hit.location).toBe("/posts/hello%20world?id=42");
    await createRule({ url: "/Strict/", action_data: { url: "/s" }, match_data: { source: { flag_case: false, flag_trailing: false } } });
    expect((await visit("/Strict/")).location).toBe("/s");
    expect((await visit("/strict/")).status).toBe(404);
    expect((await visit("/Strict")).status).toBe(404);
  });

  it("serves error actions, records unmatched paths in the 404 log and never touches API paths", async () => {
    await createRule({ url: "/gone", action_type: "error", action_code: 410 });
    expect((await visit("/gone")).status).toBe(410);
    expect((await visit("/no-such-page-here")).status).toBe(404);
    const log = await admin("GET", "/404?filterBy[url]=no-such-page");
    expect(log.body.items[0]).toMatchObject({ url: "/no-such-page-here", http_code: 404, created: "January 5, 2024" });
    expect(log.body.items[0]).not.toHaveProperty("sent_to");
    const grouped = await admin("GET", "/404?groupBy=url&filterBy[url]=no-such-page");
    expect(grouped.body).toEqual({ items: [{ count: 1, url: "/no-such-page-here", id: "/no-such-page-here" }], total: 1 });
    await createRule({ url: "/wp-json/redirection/v1/setting", action_data: { url: "/x" } });
    expect((await admin("GET", "/setting")).status).toBe(200);
  });
});

describe("export and import", () => {
  it("exports the plugin's exact CSV, Apache, Nginx and JSON texts", async () => {
    const group = await admin("POST", "/group", { name: "Export", moduleId: 3, filterBy: { name: "Export" } });
    const groupId = group.body.items[0].id;
    await admin("POST", "/redirect", { url: "/test", action_data: { url: "/target" }, group_id: groupId, match_type: "url", action_type: "url", action_code: 301, match_data: { source: { flag_case: false, flag_trailing: false } } });
    await admin("POST", "/redirect", { url: "/my-test.php", group_id: groupId, match_type: "url", action_type: "error", action_code: 410, title: "Old \"page\"", match_data: { source: { flag_case: false, flag_trailing: false } } });
    await admin("POST", "/redirect", { url: "/old", action_data: { url: "/new" }, group_id: groupId, match_type: "url", action_type: "url", action_code: 302, match_data: { source: { flag_trailing: false } } });
    const csv = await admin("GET", "/export/3/csv");
    expect(csv.body).toEqual({
      data: 'source,target,regex,code,type,hits,title,status\n"/test","/target",0,301,"url",0,"","active"\n"/my-test.php","",0,410,"error",0,"Old ""page""","active"\n"/old","/new",0,302,"url",0,"","active"\n',
      total: 3,
    });
    const nginx = await admin("GET", "/export/3/nginx");
    expect(nginx.body.data).toBe([
      "# Created by Redirection", "# Fri, 05 Jan 2024 10:41:00 +0000", "# Redirection 5.4.2 - https://redirection.me", "", "server {",
      "    rewrite ^/test$ /target permanent;", "    rewrite ^/my-test\\.php$  redirect;", "    rewrite (?i)^/old$ /new redirect;", "}", "", "# End of Redirection", "",
    ].join("\n"));
    const apache = await admin("GET", "/export/3/apache");
    expect(apache.body.data).toBe([
      "# Created by Redirection", "# Fri, 05 Jan 2024 10:41:00 +0000", "# Redirection 5.4.2 - https://redirection.me", "", "<IfModule mod_rewrite.c>",
      "RewriteRule ^test$ /target [R=301,L]", "RewriteRule ^my-test\\.php$ / [G]", "RewriteRule ^old$ /new [R=302,L,NC]", "</IfModule>", "", "# End of Redirection", "",
    ].join("\n"));
    const json = await admin("GET", "/export/3/json");
    const parsed = JSON.parse(json.body.data);
    expect(json.body.data.startsWith('{\n    "plugin": {\n        "version": "5.4.2",\n        "date": "Fri, 05 Jan 2024 10:41:00 +0000"\n    },')).toBe(true);
    expect(parsed.groups).toEqual([{ id: groupId, name: "Export", redirects: 3, module_id: 3, moduleName: "Nginx", enabled: true }]);
    expect(parsed.redirects[0]).toMatchObject({ url: "/test", match_url: "/test", action_data: { url: "/target" } });
    expect((await admin("GET", "/export/9/csv")).status).toBe(404); // not a route of the plugin either
  });

  it("imports the plugin's CSV through a multipart upload", async () => {
    const form = new FormData();
    form.append("file", new Blob(['source,target,regex,code\n"/imp-a","/dest-a",0,301\n/imp-b;x\n/imp-(c),/dest-c\n/imp-gone,/x,0,410\n']), "redirects.csv");
    const auth = `Basic ${Buffer.from("admin:abcd EFGH ijkl MNOP qrst UVWX").toString("base64")}`;
    const response = await fetch(`${system.url}${R}/import/file/1`, { method: "POST", body: form, headers: { authorization: auth } });
    const body = await response.json() as { imported: number };
    expect(response.status).toBe(200);
    expect(body).toEqual({ imported: 3 });
    const imported = await admin("GET", "/redirect?filterBy[url]=imp-&orderby=id&direction=asc");
    expect(imported.body.items.map((i: Record<string, unknown>) => [i.url, i.regex, i.action_type, i.action_code])).toEqual([
      ["/imp-a", false, "url", 301], ["/imp-(c)", true, "url", 301], ["/imp-gone", false, "error", 410],
    ]);
    const noFile = await admin("POST", "/import/file/1", {});
    expect(noFile.body.code).toBe("redirect_import_invalid_file");
  });
});

describe("more of the plugin's behaviour", () => {
  it("finds posts and pages for /redirect/post (title only when the text is past its start, else the slug)", async () => {
    for (const [type, title] of [["posts", "Winter sale"], ["posts", "Big winter coats"], ["pages", "About winter"]]) {
      const created = await system.request("POST", `/wp-json/core/v2/${type}`, { auth: "admin", body: { title, status: "publish" } });
      expect(created.status).toBe(201);
    }
    const found = await admin("GET", "/redirect/post?text=winter");
    expect(found.status).toBe(200);
    expect(found.body).toEqual(expect.arrayContaining([
      { title: "winter-sale", value: expect.stringContaining("winter-sale") },
      { title: "Big winter coats", value: expect.stringContaining("big-winter-coats") },
      { title: "About winter", value: expect.stringContaining("about-winter") },
    ]));
    expect(found.body).toHaveLength(3);
    expect((await admin("GET", "/redirect/post")).body.code).toBe("rest_missing_callback_param");
    expect((await system.request("GET", `${R}/redirect/post?text=winter`)).status).toBe(401);
  });

  it("disabling a group disables its rules (and stops serving them); deleting it deletes them", async () => {
    const group = await admin("POST", "/group", { name: "Seasonal", moduleId: 1, filterBy: { name: "Seasonal" } });
    const groupId = group.body.items[0].id;
    const created = await admin("POST", "/redirect", { url: "/season", action_data: { url: "/summer" }, group_id: groupId, match_type: "url", action_type: "url", action_code: 307 });
    expect(created.status).toBe(200);
    const temporary = await visit("/season");
    expect(temporary.status).toBe(307);
    expect(temporary.headers.get("cache-control")).toBe("no-cache, must-revalidate, max-age=0, no-store, private");
    const disabled = await admin("POST", "/bulk/group/disable", { items: [groupId, 999999], filterBy: { name: "Seasonal" } });
    expect(disabled.body.items[0]).toMatchObject({ id: groupId, enabled: false, redirects: 1 });
    expect((await admin("GET", `/redirect?filterBy[group]=${groupId}`)).body.items[0].enabled).toBe(false);
    expect((await visit("/season")).status).toBe(404);
    await admin("POST", "/bulk/group/delete", { items: [String(groupId)] });
    expect((await admin("GET", `/redirect?filterBy[group]=${groupId}`)).body.total).toBe(0);
    const renamed = await admin("POST", "/group/1", { name: "Main", moduleId: 1 });
    expect(renamed.body.item).toEqual({ id: 1, name: "Main", redirects: expect.any(Number), module_id: 1, moduleName: "WordPress", enabled: true });
    expect((await admin("POST", "/group/1", { name: "Main", moduleId: 0 })).body.item.module_id).toBe(1);
    expect((await admin("POST", "/group/999999", { name: "x", moduleId: 1 })).body).toMatchObject({ code: "redirect_group_invalid", message: "Invalid group details" });
    await admin("POST", "/group/1", { name: "Redirections", moduleId: 1 });
  });

  it("tries rules in position order, serves HEAD, and a 'nothing' rule stops matching without a 404 row", async () => {
    await createRule({ url: "/ordered", action_data: { url: "/second" }, position: 9 });
    await createRule({ url: "/ordered", action_data: { url: "/first" }, position: 1 });
    expect((await visit("/ordered")).location).toBe("/first");
    const head = await fetch(`${system.url}/ordered`, { method: "HEAD", redirect: "manual" });
    expect(head.status).toBe(301);
    await createRule({ url: "/quiet", action_type: "nothing" });
    expect((await visit("/quiet")).status).toBe(404);
    expect((await admin("GET", "/404?filterBy[url-exact]=/quiet")).body.total).toBe(0);
  });

  it("exactorder keeps the order of the query; login and other conditions choose the target", async () => {
    await createRule({ url: "/ord?b=2&a=1", action_data: { url: "/ordered-query" }, match_data: { source: { flag_query: "exactorder" } } });
    expect((await visit("/ord?b=2&a=1")).location).toBe("/ordered-query");
    expect((await visit("/ord?a=1&b=2")).status).toBe(404);
    await createRule({ url: "/members", match_type: "login", action_data: { logged_in: "/dashboard", logged_out: "/login" } });
    expect((await visit("/members")).location).toBe("/login");
    const auth = `Basic ${Buffer.from("admin:abcd EFGH ijkl MNOP qrst UVWX").toString("base64")}`;
    expect((await visit("/members", { authorization: auth })).location).toBe("/dashboard");
    await createRule({ url: "/lang", match_type: "language", action_data: { language: "fr,de", url_from: "/fr", url_notfrom: "" } });
    expect((await visit("/lang", { "accept-language": "de;q=0.8, en" })).location).toBe("/fr");
    expect((await visit("/lang", { "accept-language": "en" })).status).toBe(404);
    await createRule({ url: "/agent", match_type: "agent", action_data: { agent: "bot", regex: true, url_from: "/bots", url_notfrom: "/people" } });
    expect((await visit("/agent", { "user-agent": "GoogleBOT/2" })).location).toBe("/bots");
    expect((await visit("/agent", { "user-agent": "Firefox" })).location).toBe("/people");
  });

  it("passes through to another site with the injectable client, and to an own path internally", async () => {
    const asked: string[] = [];
    const original = redirectPassClient.fetch;
    redirectPassClient.fetch = async (url) => { asked.push(url); return { status: 200, body: "remote body", contentType: "text/plain" }; };
    try {
      await createRule({ url: "/remote", action_type: "pass", action_data: { url: "https://elsewhere.example/page" } });
      const remote = await visit("/remote");
      expect(remote.status).toBe(200);
      expect(remote.text).toBe("remote body");
      expect(asked).toEqual(["https://elsewhere.example/page"]);
    } finally {
      redirectPassClient.fetch = original;
    }
    await createRule({ url: "/api-alias", action_type: "pass", action_data: { url: "/wp-json/core/v2/posts?per_page=1" } });
    const internal = await visit("/api-alias");
    expect(internal.status).toBe(200);
    expect(JSON.parse(internal.text)).toHaveLength(1);
  });

  it("masks logged addresses with ip_logging 2 and groups/deletes log rows", async () => {
    await admin("POST", "/setting", { ip_logging: 2, ip_headers: ["HTTP_X_FORWARDED_FOR"] });
    await createRule({ url: "/masked", action_data: { url: "/m" } });
    await visit("/masked", { "x-forwarded-for": "198.51.100.77, 10.0.0.1" });
    await visit("/masked", { "x-forwarded-for": "198.51.100.78" });
    const log = await admin("GET", "/log?filterBy[url-exact]=/masked");
    expect(log.body.items.map((i: { ip: string }) => i.ip)).toEqual(["198.51.100.0", "198.51.100.0"]);
    const grouped = await admin("GET", "/log?groupBy=ip&filterBy[url-exact]=/masked");
    expect(grouped.body).toEqual({ items: [{ count: 2, url: "198.51.100.0", id: "198.51.100.0" }], total: 1 });
    const deleted = await admin("POST", "/bulk/log/delete", { items: ["198.51.100.0"], groupBy: "ip", filterBy: { "url-exact": "/masked" } });
    expect(deleted.body).toEqual({ items: [], total: 0 });
    await admin("POST", "/setting", { ip_logging: 1 });
  });

  it("round-trips the JSON export through the importer and reads Apache rules", async () => {
    const exported = await admin("GET", "/export/all/json");
    const before = (await admin("GET", "/redirect?per_page=5")).body.total;
    expect(exported.body.total).toBe(before);
    const auth = `Basic ${Buffer.from("admin:abcd EFGH ijkl MNOP qrst UVWX").toString("base64")}`;
    const upload = async (name: string, text: string, group = 1) => {
      const form = new FormData();
      form.append("file", new Blob([text]), name);
      const response = await fetch(`${system.url}${R}/import/file/${group}`, { method: "POST", body: form, headers: { authorization: auth } });
      return { status: response.status, body: await response.json() as Record<string, unknown> };
    };
    expect((await upload("backup.json", exported.body.data, 0)).body).toEqual({ imported: before });
    expect((await admin("GET", "/redirect?per_page=5")).body.total).toBe(before * 2);
    const apache = await upload("rules.htaccess", "Redirect 301 /ap-old /ap-new\nRedirectMatch 410 ^/ap-gone/(.*)$ /\nRewriteRule ^ap-rw\\.html$ /ap-target [R=302,L]\n# comment\n");
    expect(apache.body).toEqual({ imported: 3 });
    const rules = await admin("GET", "/redirect?filterBy[url]=ap-&orderby=id&direction=asc");
    expect(rules.body.items.map((i: Record<string, unknown>) => [i.url, i.regex, i.action_code])).toEqual([["/ap-old", false, 301], ["^/ap-gone/(.*)$", true, 410], ["/ap-rw.html", false, 302]]);
    expect((await upload("x.csv", "a,b", 999999)).body.code).toBe("redirect_import_invalid_group");
  });

  it("expires log rows older than expire_redirect / expire_404 days as requests are served", async () => {
    expect((await admin("GET", "/log")).body.total).toBeGreaterThan(0);
    const later = new Date(NOW.getTime() + 61 * 86_400_000);
    redirectionEnvironment.now = () => later;
    await visit("/after-expiry");
    expect((await admin("GET", "/log")).body.total).toBe(0);
    const notFound = await admin("GET", "/404");
    expect(notFound.body.items.map((i: { url: string }) => i.url)).toEqual(["/after-expiry"]);
  });

  it("reports its status and database, and /plugin/delete removes every rule, group and log (a fresh install follows)", async () => {
    const status = await admin("GET", "/plugin");
    expect(status.body.status.map((c: { id: string; status: string }) => [c.id, c.status])).toEqual([
      ["db", "good"], ["groups", "good"], ["redirect_groups", "good"], ["monitor", "good"], ["redirect_url", "good"],
    ]);
    expect(status.body.debug.ip_header.REMOTE_ADDR).toBe("127.0.0.1");
    expect(status.body.debug.ip_header.HTTP_X_FORWARDED_FOR).toBe(false);
    const data = await admin("POST", "/plugin/data", { upgrade: "retry" });
    expect(data.body).toMatchObject({ status: "ok", inProgress: false, current: "4.2", next: "4.2", result: "error", reason: "Your database does not need updating to 4.2.", debug: [] });
    expect((await admin("POST", "/plugin/data", { upgrade: "bogus" })).body.code).toBe("rest_invalid_param");
    expect((await system.request("POST", `${R}/plugin/delete`)).status).toBe(401);
    const deleted = await admin("POST", "/plugin/delete");
    expect(deleted.body).toEqual({ location: "http://example.test/wp-admin/plugins.php" });
    expect((await admin("GET", "/redirect")).body).toEqual({ items: [], total: 0 });
    expect((await admin("GET", "/group?orderby=id&direction=asc")).body.items.map((g: { name: string }) => g.name)).toEqual(["Redirections", "Modified Posts"]);
    expect((await visit("/old-page")).status).toBe(404);
  });

  it("answers malformed input on every route with a 4xx in WordPress's error shape, never a 5xx", async () => {
    const paths = [
      "/redirect", "/redirect/1", "/redirect/99999999999", "/redirect/post?text[]=x", "/bulk/redirect/delete", "/bulk/redirect/reset", "/group", "/group/1",
      "/bulk/group/enable", "/log", "/bulk/log/delete", "/404", "/bulk/404/delete", "/setting", "/plugin", "/plugin/test", "/plugin/data", "/plugin/fix",
      "/import/file/1", "/import/file/99999999999", "/import/plugin", "/export/all/csv", "/export/1/json",
    ];
    const bodies: unknown[] = [
      { url: {}, group_id: "x", action_type: ["url"], match_type: 5, action_data: "str", match_data: 5, position: "abc", title: { a: 1 } },
      { url: ["/a", { b: 1 }], group_id: 1, action_type: "url", match_type: "url", action_data: { url: ["x"] }, match_data: { source: "nope", options: [1] } },
      { items: "nope", global: "yes", filterBy: "str", per_page: "abc", page: -3, orderby: 7, direction: "up" },
      { items: [{}, null, "1e999", -1], filterBy: { status: ["a"], id: "x", group: {} }, groupBy: ["ip"] },
      { name: ["a"], moduleId: "2x", status: {} },
      { expire_redirect: "abc", ip_headers: "HTTP_VIA", aliases: [1, {}], relocate: 5, headers: "x", token: [], flag_query: 9, monitor_post: "x", last_group_id: [] },
      { upgrade: ["stop"], reason: 1, current: {}, name: {}, value: [] },
    ];
    const failures: string[] = [];
    const statuses: Record<number, number> = {};
    for (const path of paths) {
      for (const method of ["GET", "POST"]) {
        for (const body of method === "GET" ? [undefined] : bodies) {
          const response = await admin(method, path, body);
          statuses[response.status] = (statuses[response.status] ?? 0) + 1;
          if (response.status >= 500 || (response.status >= 400 && typeof response.body?.code !== "string")) failures.push(`${response.status} ${method} ${path} ${JSON.stringify(body)}`);
        }
      }
      const raw = await system.request("POST", `${R}${path}`, { auth: "admin", raw: "{not json", headers: { "content-type": "application/json" } });
      if (raw.status >= 500) failures.push(`${raw.status} POST ${path} (bad JSON)`);
    }
    expect(failures).toEqual([]);
    // The walk reached both refusals and successes (it asked real questions).
    expect(Object.keys(statuses).map(Number).some((code) => code === 400)).toBe(true);
    expect(Object.keys(statuses).map(Number).some((code) => code === 200)).toBe(true);
    const weird = await Promise.all(["/%ff%fe", "/a?b[c][d][e][f][g][h][i][j][k][l][m]=1", "/x?%=%", `/${"a".repeat(3000)}`].map((p) => visit(p)));
    expect(weird.map((r) => r.status).filter((code) => code >= 500)).toEqual([]);
  });
});
