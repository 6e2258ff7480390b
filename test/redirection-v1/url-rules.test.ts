// The Redirection plugin's URL rules, with the cases of its own unit tests (tests/models/test-url*.php,
// test-regex.php): lookup keys, path and query matching under the source flags, regex sources and
// targets, and the `pass` query merge.
import { describe, expect, it } from "vitest";
import {
  addQueryToTarget, matchUrlOf, parseFlags, pathMatches, queryAfter, queryDiff, queryMatches, regexReplace, sourceMatches, urlPath, type SourceFlags,
} from "../../subgraphs/extensions/redirection/url.ts";
import { sanitizeRule } from "../../subgraphs/extensions/redirection/records.ts";
import { defaultOptions } from "../../subgraphs/extensions/redirection/settings.ts";
import { apacheText, csvText, jsonText, nginxText } from "../../subgraphs/extensions/redirection/export.ts";

const flags = (json: Record<string, unknown> = {}): SourceFlags => parseFlags(json);

describe("lookup key (match_url)", () => {
  it.each([
    ["/test", "/test"], ["http://test.com/test", "/test"], ["http://test.com//test//", "//test/"], ["", "/"], ["/TEsT", "/test"],
    ["/test/", "/test"], ["/中国:again/thing?other=中国", "/%e4%b8%ad%e5%9b%bd:again/thing"], ["/Über", "/%c3%9cber"], ["/a b(c)", "/a%20b(c)"],
  ])("%s → %s", (url, key) => expect(matchUrlOf(url)).toBe(key));
});

describe("paths", () => {
  it("reads the path the way Red_Url_Path does", () => {
    expect(urlPath("/cats?this=query&more")).toBe("/cats");
    expect(urlPath("http://domain.com:303/cats?this=query&more")).toBe("/cats");
    expect(urlPath("//cats//?this=query&more")).toBe("//cats//");
    expect(urlPath("/thing\\?this=query&more")).toBe("/thing");
    expect(urlPath("/thing\\?this=query&more?another")).toBe("/thing");
    expect(urlPath("/page.html?page=http://domain.com:303/cats?this=query&more")).toBe("/page.html");
  });

  it("matches exactly unless the case and trailing-slash flags say otherwise", () => {
    expect(pathMatches("/test", "/test", flags())).toBe(true);
    expect(pathMatches("/test1", "/test2", flags())).toBe(false);
    expect(pathMatches("/test1", "/tEst1", flags())).toBe(false);
    expect(pathMatches("/test1", "/test1/", flags())).toBe(false);
    expect(pathMatches("/test1", "/teSt1", flags({ flag_case: true }))).toBe(true);
    expect(pathMatches("/test1/", "/test1", flags({ flag_trailing: true }))).toBe(true);
    expect(pathMatches("/", "//", flags({ flag_trailing: true }))).toBe(true);
  });
});

describe("query modes", () => {
  const exact = flags();
  it("exact: every param, no more, in any order", () => {
    expect(queryMatches("/test", "", exact)).toBe(true);
    expect(queryMatches("/test", "/test?a", exact)).toBe(false);
    expect(queryMatches("/test?a=1", "/test?a=2", exact)).toBe(false);
    expect(queryMatches("/test?a=1", "/test?b=1", exact)).toBe(false);
    expect(queryMatches("/this?a=1&b=2", "/this?b=2&a=1", exact)).toBe(true);
    expect(queryMatches("/this?=2", "/this?=2", exact)).toBe(true);
    expect(queryMatches("/this?=2", "/this?=1", exact)).toBe(false);
    expect(queryMatches("/this?cat=0", "/this?cat=0", exact)).toBe(true);
    expect(queryMatches("/this?cats=2", "/this?CATS=2", flags({ flag_case: true }))).toBe(true);
    expect(queryMatches("/cats?dogs[]=1&dogs[]=2", "/cats?dogs[]=1&dogs[]=2", exact)).toBe(true);
    expect(queryMatches("/cats?dogs[]=1&dogs[]=2", "/cats?dogs[]=3&dogs[]=2", exact)).toBe(false);
    expect(queryMatches("/?arrs1[]=1&arrs1[]=2&arrs1[]=3", "/this?arrs2[]=1&arrs1[]=1&arrs1[]=2&arrs1[]=3", exact)).toBe(false);
    expect(queryMatches("/?hasCase[something]=test", "/?hasCase[something]=test", exact)).toBe(true);
    expect(queryMatches("/?hasCase[something]=test", "/?hascase[something]=test", exact)).toBe(false);
    expect(queryMatches("/?hasCase[something]=test", "/?hascase[something]=test", flags({ flag_case: true }))).toBe(true);
    expect(queryMatches("/?a+1", "/?a+1", exact)).toBe(true);
  });

  it("ignore and pass: the source's params must be there, others may be", () => {
    expect(queryMatches("", "/this?b=2&a=1", flags({ flag_query: "ignore" }))).toBe(true);
    expect(queryMatches("/?a=1", "/this?b=2&a=1", flags({ flag_query: "ignore" }))).toBe(true);
    expect(queryMatches("/?a=1", "/this?b=2&a=1", flags({ flag_query: "pass" }))).toBe(true);
    expect(queryMatches("/?a+1", "/?a+1&test=3", flags({ flag_query: "pass" }))).toBe(true);
    const arrays = "/this?arrs2[]=1&arrs2[]=2&arrs2[]=3&arrs1[]=1&arrs1[]=2&arrs1[]=3";
    expect(queryMatches("/?arrs1[]=1&arrs1[]=2&arrs1[]=3&arrs2[]=1&arrs2[]=2&arrs2[]=3", arrays, flags({ flag_query: "pass" }))).toBe(true);
    expect(queryMatches("/?arrs1[]=1&arrs1[]=2&arrs1[]=3&arrs2[]=1&arrs2[]=2&arrs2[]=5", arrays, flags({ flag_query: "pass" }))).toBe(false);
    expect(queryMatches("/?arrs1[]=1&arrs1[]=2&arrs1[]=3&arrs2=5", arrays, flags({ flag_query: "pass" }))).toBe(false);
    expect(sourceMatches("/?order=wc_order_nq123124sdf0", "/?download_file=123&order=wc_order_nq123124sdf0&email=test%40example.com", flags({ flag_query: "ignore" }))).toBe(true);
    expect(sourceMatches("/cat", "/cat?things", flags({ flag_query: "ignore" }))).toBe(true);
  });

  it("pass appends the request's other params to the target (never overriding the target's)", () => {
    const pass = flags({ flag_query: "pass" });
    expect(addQueryToTarget("/cats", "/target", pass)).toBe("/cats");
    expect(addQueryToTarget("/cats", "/target?hey=there", pass)).toBe("/cats?hey=there");
    expect(addQueryToTarget("/cats", "/target?1=there", pass)).toBe("/cats?1=there");
    expect(addQueryToTarget("/cats", "/target?this=a%20cat", pass)).toBe("/cats?this=a+cat");
    expect(addQueryToTarget("/cats", "/target?this=a+cat", pass)).toBe("/cats?this=a+cat");
    expect(addQueryToTarget("/cats?cat=a", "/target?thing=cat", pass)).toBe("/cats?cat=a&thing=cat");
    expect(addQueryToTarget("/cats?cat=a", "/target?cat=b", pass)).toBe("/cats?cat=a");
    expect(addQueryToTarget("/", "/?arrs1[]=1&arrs1[]=2&arrs1[]=3&arrs2[]=1&arrs2[]=2&arrs2[]=3", pass)).toBe("/?arrs1[]=1&arrs1[]=2&arrs1[]=3&arrs2[]=1&arrs2[]=2&arrs2[]=3");
    expect(addQueryToTarget("/", "/?this=THAt", flags({ flag_query: "pass", flag_case: true }))).toBe("/?this=THAt");
    expect(addQueryToTarget("/", "/?this", pass)).toBe("/?this");
    expect(addQueryToTarget("/", "/?this+that", pass)).toBe("/?this+that");
    expect(addQueryToTarget("/", "/?array[]=1&this+that", pass)).toBe("/?array[]=1&this+that");
    expect(addQueryToTarget("/#fragment", "/?arrs1[]=1&arrs1[]=2&stuff=1", pass)).toBe("/?arrs1[]=1&arrs1[]=2&stuff=1#fragment");
    expect(addQueryToTarget("/cats", "/target?x=1", flags())).toBe("/cats");
  });

  it("reads the query after the first ? or an escaped \\? before it", () => {
    expect(queryAfter("/no-query")).toBe("");
    expect(queryAfter("/query?cat")).toBe("cat");
    expect(queryAfter("/query\\?cat")).toBe("cat");
    expect(queryAfter("/query?dog\\?cat")).toBe("dog\\?cat");
    expect(queryAfter("/query\\?cat?cat")).toBe("cat?cat");
    expect(queryDiff({ a: { a: "a" } }, { a: { a: "b" } })).toEqual({ a: { a: "a" } });
    expect(queryDiff({ a: "a" }, { b: "b" })).toEqual({ a: "a" });
  });
});

describe("regex sources and targets", () => {
  const regex = flags({ flag_regex: true });
  it("matches like preg_match with @…@s (i when case-insensitive); a malformed pattern never matches", () => {
    expect(sourceMatches("cat.*", "cat5", regex)).toBe(true);
    expect(sourceMatches("cat.*", "dog5", regex)).toBe(false);
    expect(sourceMatches("/cat[5", "cat5", regex)).toBe(false);
    expect(sourceMatches("cat.*", "CAT5", flags({ flag_regex: true, flag_case: true }))).toBe(true);
    expect(sourceMatches(encodeURIComponent("für.*"), "fürcat", regex)).toBe(true);
    expect(sourceMatches("@cat.*", "@cat5", regex)).toBe(true);
    expect(sourceMatches("^/hello\\+world", "/hello+world", regex)).toBe(true);
    expect(sourceMatches("/cat/\\d", "/cat/1", regex)).toBe(true);
    expect(parseFlags({ flag_query: "pass", flag_regex: true }).flag_query).toBe("exact");
  });

  it("substitutes groups and encodes spaces (%20 in the path, + in the query)", () => {
    expect(regexReplace("cat(.*)", false, "dog$1", "cat5")).toBe("dog5");
    expect(regexReplace("cat(.*)", false, "dog$1", "cat5 3")).toBe("dog5%203");
    expect(regexReplace("cat(.*)", false, "dog$1", "cat5?thing 4")).toBe("dog5?thing+4");
    expect(regexReplace("/cat[5", false, "dog$1", "cat5")).toBe("cat5");
    expect(regexReplace("^/old/(\\d+)$", false, "/new/\\1", "/old/42")).toBe("/new/42");
  });
});

describe("sanitizer", () => {
  const ctx = { options: { ...defaultOptions(), flag_case: true, flag_trailing: true }, groupExists: (id: number) => id === 1, siteHost: "example.test" };
  it("normalises the source, codes and targets like Red_Item_Sanitize", () => {
    const rule = sanitizeRule({ url: " http://example.test/a&amp;b<b>x</b>\nmore ", action_type: "url", action_code: 399, group_id: 1, match_type: "url", action_data: { url: "/t\tx" } }, ctx);
    expect(rule).toMatchObject({ url: "/a&bx", matchUrl: "/a%26bx", actionCode: 301, actionData: "/t", regex: false, status: "enabled" });
    expect(sanitizeRule({ url: "x", action_type: "url", group_id: 1, match_type: "url", action_data: { url: "" } }, ctx).actionData).toBe("/");
    expect(sanitizeRule({ url: "/g", action_type: "error", action_code: 301, group_id: 1, match_type: "url" }, ctx)).toMatchObject({ actionCode: 404, actionData: null });
    expect(sanitizeRule({ url: "/n", action_type: "nothing", action_code: 301, group_id: 1, match_type: "url" }, ctx)).toMatchObject({ actionType: "nothing", actionCode: 0, actionData: null });
    expect(() => sanitizeRule({ url: "/n", action_type: "", group_id: 1, match_type: "url" }, ctx)).toThrow("Invalid redirect action");
    expect(() => sanitizeRule({ url: "/n", action_type: "url", group_id: 1 }, ctx)).toThrow("Invalid redirect matcher");
    expect(sanitizeRule({ url: "/r", regex: 1, match_data: { source: { flag_case: true } }, action_type: "url", group_id: 1, match_type: "url" }, ctx).regex).toBe(false);
    expect(sanitizeRule({ url: "/nodata", action_type: "url", group_id: 1, match_type: "url" }, ctx).actionData).toBeNull();
    expect(sanitizeRule({ url: "^/(?&lt;!x)y", regex: 1, action_type: "url", group_id: 1, match_type: "url", action_data: { url: "/" } }, ctx)).toMatchObject({ url: "^/(?<!x)y", matchUrl: "regex", regex: true });
    expect(sanitizeRule({ url: "/q?b=2&a=1", action_type: "url", group_id: 1, match_type: "url", match_data: { source: { flag_query: "exactorder" } }, action_data: { url: "/" } }, ctx).matchUrl).toBe("/q?b=2&a=1");
    expect(sanitizeRule({ url: "https://other.example/path", action_type: "url", group_id: 1, match_type: "url", action_data: { url: "/to" } }, ctx))
      .toMatchObject({ url: "/path", matchType: "server", actionData: JSON.stringify({ url_from: "/to", url_notfrom: "", server: "http://other.example" }) });
    expect(() => sanitizeRule({ url: "", action_type: "url", group_id: 1, match_type: "url" }, ctx)).toThrow("Invalid source URL");
    expect(() => sanitizeRule({ url: "/x", action_type: "bogus", group_id: 1, match_type: "url" }, ctx)).toThrow("Invalid redirect action");
    expect(sanitizeRule({ url: "/x", action_type: "url", group_id: 1, match_type: "url", position: -5, status: "disabled" }, ctx)).toMatchObject({ position: 0, status: "disabled" });
    expect(sanitizeRule({ url: "/x", action_type: "url", group_id: 1, match_type: "url", position: 0 }, ctx).position).toBeNull();
    expect(sanitizeRule({ url: "/x", action_type: "url", group_id: 1, match_type: "url" }, ctx, true).position).toBe(0);
    expect(() => sanitizeRule({ url: "", action_type: "url", group_id: 2, match_type: "url" }, ctx)).toThrow("Invalid source URL");
    expect(() => sanitizeRule({ url: "/x", action_type: "url", group_id: 2, match_type: "url" }, ctx)).toThrow("Invalid group when creating redirect");
  });
});

describe("export texts", () => {
  const now = new Date("2024-01-05T10:41:00Z");
  const options = { ...defaultOptions(), flag_case: false, flag_trailing: false };
  const row = (over: Record<string, unknown>) => ({
    id: 1, url: "/x", matchUrl: "/x", matchData: null, regex: false, position: 0, lastCount: 0, lastAccess: new Date(0), groupId: 1,
    status: "enabled", actionType: "url", actionCode: 301, actionData: "/y", matchType: "url", title: null, ...over,
  }) as Parameters<typeof apacheText>[0][number];

  it("writes regex, query, server, agent and https rules the way the plugin's .htaccess does", () => {
    const text = apacheText([
      row({ url: "^/blog/(.*)$", matchUrl: "regex", regex: true, actionData: "/$1" }),
      row({ url: "/my-test?query=1", actionData: "/target#top" }),
      row({ url: "/srv", matchType: "server", actionData: JSON.stringify({ url_from: "/from", url_notfrom: "", server: "http://old.example" }), actionCode: 302 }),
      row({ url: "/ua", matchType: "agent", actionData: JSON.stringify({ url_from: "/mobile", url_notfrom: "", regex: false, agent: "iPhone" }) }),
      row({ url: "/pass", actionType: "pass", actionData: "/elsewhere", matchData: { source: { flag_query: "pass" } } }),
      row({ url: "/off", status: "disabled" }),
      row({ url: "/nothing", actionType: "nothing" }),
    ], { ...options, https: true }, now);
    expect(text).toBe([
      "# Created by Redirection", "# Fri, 05 Jan 2024 10:41:00 +0000", "# Redirection 5.4.2 - https://redirection.me", "", "<IfModule mod_rewrite.c>",
      "RewriteCond %{HTTPS} off", "RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [L,R=301]",
      "RewriteRule ^blog/(.*)$ /$1 [R=301,L]",
      "RewriteCond %{QUERY_STRING} ^query=1$", "RewriteRule ^my-test$ /target#top [R=301,L,NE]",
      "RewriteCond %{HTTP_HOST} ^old\\.example$ [NC]", "RewriteRule ^srv$ /from [R=302,L]",
      "RewriteCond %{HTTP_USER_AGENT} iPhone [NC]", "RewriteRule ua /mobile [R=301,L]",
      "RewriteRule ^pass$ /elsewhere [L,QSA]",
      "</IfModule>", "", "# End of Redirection", "",
    ].join("\n"));
    expect(apacheText([row({ status: "disabled" })], options, now)).toBe("\n");
  });

  it("writes nginx rewrites (regex, case-insensitive, agent conditions with the plugin's empty pattern and its indentation)", () => {
    const text = nginxText([
      row({ url: "^/blog/(.*)$", matchUrl: "regex", regex: true, actionData: "/$1", actionCode: 302 }),
      row({ url: "/Case", actionData: "/c", matchData: { source: { flag_case: true } } }),
      row({ url: "/ua", matchType: "agent", actionData: JSON.stringify({ url_from: "/m", url_notfrom: "/d", regex: false, agent: "iPhone" }) }),
    ], options, now);
    expect(text).toBe([
      "# Created by Redirection", "# Fri, 05 Jan 2024 10:41:00 +0000", "# Redirection 5.4.2 - https://redirection.me", "", "server {",
      "    rewrite ^blog/(.*)$ /$1 redirect;",
      "    rewrite (?i)^/Case$ /c permanent;",
      "    if ( $http_user_agent ~* ^$ ) {\n        rewrite ^/ua$ /m permanent;\n    }\nif ( $http_user_agent !~* ^$ ) {\n        rewrite ^/ua$ /d permanent;\n    }",
      "}", "", "# End of Redirection", "",
    ].join("\n"));
  });

  it("quotes only non-numeric CSV cells and escapes JSON as wp_json_encode does", () => {
    expect(csvText([row({ url: "/a,\"b\"", title: "T" })])).toBe('source,target,regex,code,type,hits,title,status\n"/a,""b""","/y",0,301,"url",0,"T","active"\n');
    expect(jsonText({ a: "é/😀", b: [] })).toBe('{\n    "a": "\\u00e9/\\ud83d\\ude00",\n    "b": []\n}\n');
  });
});
