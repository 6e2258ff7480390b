// The explorers as a person meets them, in a real headless browser: Debian's chromium driven by
// playwright-core (its own browser downloads need the internet; .ci/run installs chromium).
// Every request that leaves the router is refused, so the pages must work offline.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser, type Page } from "playwright-core";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";

const CHROMIUM = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"]
  .find((file): file is string => Boolean(file) && fs.existsSync(file as string));
if (!CHROMIUM) {
  console.warn("test/browser/explorer.test.ts skipped: no chromium binary (apt-get install chromium, or set CHROMIUM_PATH)");
}

let system: TestSystem;
beforeAll(async () => { system = await startTestSystem(); });
afterAll(async () => { await system?.stop(); });

describe("the landing page over HTTP", () => {
  it("answers GET / with the page and WordPress's API discovery link", async () => {
    const r = await system.request("GET", "/");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^text\/html/);
    expect(r.headers.get("link")).toBe('<http://example.test/wp-json/>; rel="https://api.w.org/"');
    expect((await system.request("HEAD", "/")).headers.get("link")).toContain('rel="https://api.w.org/"');
  });

  it("leaves ?rest_route= to the REST layer, and other methods on / without it answer 404", async () => {
    const index = await system.request("GET", "/?rest_route=/");
    expect(index.status).toBe(200);
    expect(index.body.namespaces).toContain("core/v2");
    expect((await system.request("POST", "/")).status).toBe(404);
  });
});

describe.skipIf(!CHROMIUM)("the explorers in headless chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    // --no-sandbox: CI runs as root, where chromium refuses its sandbox.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  });
  afterAll(async () => { await browser?.close(); });

  /** A fresh page on which every request off the router is aborted and listed in `offline`. */
  async function offlinePage(): Promise<{ page: Page; offline: string[] }> {
    const page = await browser.newPage();
    const offline: string[] = [];
    await page.route((url) => url.origin !== new URL(system.url).origin, (route) => {
      offline.push(route.request().url());
      return route.abort("internetdisconnected");
    });
    return { page, offline };
  }

  it("GraphiQL runs a query typed into its editor and shows the answer, with nothing fetched from outside", async () => {
    const { page, offline } = await offlinePage();
    await page.goto(`${system.url}/graphiql`);
    const editor = page.locator(".graphiql-query-editor .CodeMirror");
    await editor.click();
    await page.keyboard.press("Control+A");
    await page.keyboard.press("Delete");
    // The editor closes brackets itself; typing a closing one steps over it, so the text comes out as typed.
    await page.keyboard.type("{ site { name } }");
    expect(await editor.evaluate((el) => (el as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue()))
      .toBe("{ site { name } }");
    await page.locator(".graphiql-execute-button").click();

    const response = page.locator(".graphiql-response .CodeMirror");
    await expect.poll(() => response.innerText(), { timeout: 10_000 }).toContain('"name"');
    const shown = await response.evaluate((el) => (el as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue());
    const expected = await system.graphql<{ site: { name: string } }>("{ site { name } }");
    expect(expected.data?.site.name).toBeTruthy();
    expect(JSON.parse(shown)).toEqual({ data: expected.data });
    expect(offline).toEqual([]);
    await page.close();
  });

  it("the landing page links every explorer and document, and each link opens", async () => {
    const { page } = await offlinePage();
    const home = await page.goto(`${system.url}/`);
    expect(home?.status()).toBe(200);
    expect(await home?.headerValue("link")).toBe('<http://example.test/wp-json/>; rel="https://api.w.org/"');

    const hrefs = await page.locator("a").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    expect(hrefs).toEqual(["/graphql", "/graphiql", "/wp-json/", "/openapi.json", "/api/v2/docs.json"]);

    const opened: Record<string, string> = {};
    for (const href of hrefs as string[]) {
      await page.goto(`${system.url}/`);
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.url() === `${system.url}${href}` && r.request().isNavigationRequest()),
        page.locator(`a[href="${href}"]`).click(),
      ]);
      expect(response.status(), href).toBe(200);
      opened[href] = await response.text();
    }
    // Sandbox: Apollo's page, whose scripts come from Apollo's CDN (refused here, so only its HTML is checked).
    expect(opened["/graphql"]).toContain("embeddable-sandbox.cdn.apollographql.com");
    expect(opened["/graphql"]).toContain("<title>Apollo Server</title>");
    expect(opened["/graphiql"]).toContain("<title>GraphiQL</title>");
    expect(JSON.parse(opened["/wp-json/"]).namespaces).toContain("core/v2");
    expect(JSON.parse(opened["/openapi.json"]).openapi).toMatch(/^3\./);
    expect(JSON.parse(opened["/api/v2/docs.json"]).openapi).toMatch(/^3\.1/);
    await page.close();
  });

  it("the Sandbox page at /graphql is served to a browser, and its scripts are Apollo's CDN's", async () => {
    const { page, offline } = await offlinePage();
    const response = await page.goto(`${system.url}/graphql`);
    expect(response?.status()).toBe(200);
    expect(await response?.headerValue("content-type")).toMatch(/^text\/html/);
    expect(await page.title()).toBe("Apollo Server");
    expect(offline.some((url) => url.startsWith("https://embeddable-sandbox.cdn.apollographql.com/"))).toBe(true);
    await page.close();
  });
});
