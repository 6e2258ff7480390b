// The email gateway slice end to end: /api/v2 login and tokens, the accounted-email collection
// in Hydra, HAL and plain JSON, operator filters and their violations, and the GraphQL side.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GATEWAY_ADMIN_PASSWORD, startTestSystem, type TestSystem } from "./helpers/system.ts";
import { recordDelivery } from "../subgraphs/gateway/licensing/accounted-emails.ts";
import { ensureAdministrator } from "../subgraphs/gateway/auth/users.ts";
import { login as gatewayLogin } from "../subgraphs/gateway/auth/sessions.ts";
import { openDatabase } from "../lib/db.ts";
import { applyMigrations } from "../lib/migrate.ts";

let system: TestSystem;
let token: string;

const DAY = 24 * 60 * 60 * 1000;
const RFC3339_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;
const BASE_TIME = Date.parse("2024-05-01T09:30:12Z");

/** Rows as the nightly accounting would leave them. */
function row(address: string, i: number, type = "address") {
  const firstSeenOn = new Date(BASE_TIME + i * 60_000);
  const lastSeenOn = new Date(firstSeenOn.getTime() + 3 * DAY);
  return {
    address, type, domain: address.slice(address.indexOf("@") + 1).toLowerCase(),
    firstSeenOn, lastSeenOn, expiresOn: new Date(lastSeenOn.getTime() + 30 * DAY),
    deliveryCount: i + 1, accounted: type !== "functional",
  };
}

const login = (username = "admin", password = GATEWAY_ADMIN_PASSWORD) =>
  system.request("POST", "/api/v2/login", { body: { username, password } });

const get = (path: string, headers: Record<string, string> = {}) =>
  system.request("GET", path, { headers: { "x-esg-auth-token": token, ...headers } });

const LIST = "/api/v2/licensing/accounted-email";
const hydra = { accept: "application/ld+json" };
const hal = { accept: "application/hal+json" };
const json = { accept: "application/json" };

beforeAll(async () => {
  system = await startTestSystem();
  // 35 ordinary addresses plus three on corp.test, one of them a functional user: 38 rows.
  const rows = Array.from({ length: 35 }, (_, i) => row(`user${String(i + 1).padStart(2, "0")}@example.test`, i));
  rows.push(row("Anna.Smith@Corp.Test", 40), row("bob@corp.test", 41), row("shared@corp.test", 42, "functional"));
  await system.db.prisma.accountedEmail.createMany({ data: rows });
  const response = await login();
  token = response.body.token;
});

afterAll(async () => { await system?.stop(); });

describe("POST /api/v2/login", () => {
  it("returns a token for the administrator's password", async () => {
    const response = await login();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.body.token).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(response.body.expiresAt).toMatch(RFC3339_OFFSET);
  });

  it("stores only a keyed hash of the token", async () => {
    const { body } = await login();
    const [id, secret] = body.token.split(".");
    const session = await system.db.prisma.gatewaySession.findUniqueOrThrow({ where: { id } });
    expect(session.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(session.secretHash).not.toContain(secret);
  });

  it("answers a wrong password or an unknown user with 401 in the gateway's error shape", async () => {
    for (const response of [await login("admin", "wrong"), await login("nobody", "wrong")]) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({
        "@context": "/api/v2/contexts/Error", "@type": "hydra:Error",
        "hydra:title": "An error occurred", "hydra:description": "Invalid credentials.",
        title: "An error occurred", detail: "Invalid credentials.", status: 401,
      });
    }
  });

  it("rejects malformed bodies in the same error shape", async () => {
    const badJson = await system.request("POST", "/api/v2/login", { raw: "{not json", headers: { "content-type": "application/json" } });
    expect(badJson.status).toBe(400);
    expect(badJson.body["@type"]).toBe("hydra:Error");
    expect(badJson.body.status).toBe(400);

    const missing = await system.request("POST", "/api/v2/login", { body: { username: "admin" } });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toBe('The key "password" must be provided.');

    const form = await system.request("POST", "/api/v2/login", { raw: "username=admin", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(form.status).toBe(415);
    expect(form.body["hydra:description"]).toContain("application/x-www-form-urlencoded");
  });

  it("still signs in when a stale token is sent along", async () => {
    const response = await system.request("POST", "/api/v2/login", {
      body: { username: "admin", password: GATEWAY_ADMIN_PASSWORD }, headers: { "x-esg-auth-token": "stale.token" },
    });
    expect(response.status).toBe(200);
  });
});

describe("authentication of /api/v2/licensing/accounted-email", () => {
  it("requires a token", async () => {
    const response = await system.request("GET", LIST);
    expect(response.status).toBe(401);
    expect(response.body["@type"]).toBe("hydra:Error");
    expect(response.body.status).toBe(401);
  });

  it("rejects an unknown token", async () => {
    for (const bad of ["garbage", `${"a".repeat(22)}.${"b".repeat(43)}`, `${token.split(".")[0]}.${"b".repeat(43)}`]) {
      const response = await get(LIST, { "x-esg-auth-token": bad });
      expect(response.status).toBe(401);
      expect(response.body.detail).toBe("The auth token is not valid.");
    }
  });

  it("says 'token' and 'expired' for an expired token, the wording clients re-login on", async () => {
    const { body } = await login();
    await system.db.prisma.gatewaySession.update({ where: { id: body.token.split(".")[0] }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const response = await get(LIST, { "x-esg-auth-token": body.token });
    expect(response.status).toBe(401);
    expect(response.body.detail).toMatch(/token.*expired/);
    expect(response.body["hydra:description"]).toBe("The auth token has expired.");
  });

  it("records the token's last use", async () => {
    const { body } = await login();
    const id = body.token.split(".")[0];
    expect((await system.db.prisma.gatewaySession.findUniqueOrThrow({ where: { id } })).lastUsedAt).toBeNull();
    expect((await get(LIST, { "x-esg-auth-token": body.token })).status).toBe(200);
    expect((await system.db.prisma.gatewaySession.findUniqueOrThrow({ where: { id } })).lastUsedAt).toBeInstanceOf(Date);
  });
});

describe("accounted-email collection formats", () => {
  it("serves Hydra for application/ld+json, with a paginated view", async () => {
    const response = await get(`${LIST}?itemsPerPage=10&page=2`, hydra);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/ld\+json/);
    const body = response.body;
    expect(body["@context"]).toBe("/api/v2/contexts/AccountedEmail");
    expect(body["@id"]).toBe(LIST);
    expect(body["@type"]).toBe("hydra:Collection");
    expect(body["hydra:totalItems"]).toBe(38);
    expect(body["hydra:member"]).toHaveLength(10);
    const first = body["hydra:member"][0];
    expect(first).toMatchObject({ "@id": `${LIST}/${first.id}`, "@type": "AccountedEmail", email: "user11@example.test", type: "address", domain: "example.test", accounted: true, deliveryCount: 11 });
    expect(first.firstSeenOn).toMatch(RFC3339_OFFSET);
    expect(first.firstSeenOn).toBe("2024-05-01T09:40:12+00:00");
    expect(body["hydra:view"]).toEqual({
      "@id": `${LIST}?itemsPerPage=10&page=2`, "@type": "hydra:PartialCollectionView",
      "hydra:first": `${LIST}?itemsPerPage=10&page=1`, "hydra:last": `${LIST}?itemsPerPage=10&page=4`,
      "hydra:previous": `${LIST}?itemsPerPage=10&page=1`, "hydra:next": `${LIST}?itemsPerPage=10&page=3`,
    });
  });

  it("leaves out the Hydra view on a single unfiltered page, and previous/next at the ends", async () => {
    const single = await get(`${LIST}?itemsPerPage=100`, hydra);
    expect(single.body["hydra:member"]).toHaveLength(38);
    expect(single.body).not.toHaveProperty("hydra:view");
    const last = await get(`${LIST}?itemsPerPage=10&page=4`, hydra);
    expect(last.body["hydra:member"]).toHaveLength(8);
    expect(last.body["hydra:view"]).not.toHaveProperty("hydra:next");
    expect(last.body["hydra:view"]["hydra:previous"]).toBe(`${LIST}?itemsPerPage=10&page=3`);
  });

  it("serves HAL for application/hal+json, and when the client sends no Accept or */*", async () => {
    for (const headers of [hal, {}, { accept: "*/*" }, { accept: "text/html,application/xhtml+xml,*/*;q=0.8" }]) {
      const response = await get(`${LIST}?page=2&itemsPerPage=10`, headers);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^application\/hal\+json/);
      const body = response.body;
      expect(body._links.self).toEqual({ href: `${LIST}?page=2&itemsPerPage=10` });
      expect(body._links.first).toEqual({ href: `${LIST}?page=1&itemsPerPage=10` });
      expect(body._links.last).toEqual({ href: `${LIST}?page=4&itemsPerPage=10` });
      expect(body._links.prev).toEqual({ href: `${LIST}?page=1&itemsPerPage=10` });
      expect(body._links.next).toEqual({ href: `${LIST}?page=3&itemsPerPage=10` });
      expect(body.totalItems).toBe(38);
      expect(body.itemsPerPage).toBe(10);
      expect(body._embedded.item).toHaveLength(10);
      const item = body._embedded.item[0];
      expect(item._links.self.href).toBe(`${LIST}/${item.id}`);
      expect(item.email).toBe("user11@example.test");
      expect(body._links.item).toEqual(body._embedded.item.map((i: { id: number }) => ({ href: `${LIST}/${i.id}` })));
    }
  });

  it("HAL: first page has no prev, last page no next, and an empty page has no _embedded", async () => {
    const first = await get(`${LIST}?itemsPerPage=30`, hal);
    expect(first.body._links).not.toHaveProperty("prev");
    expect(first.body._links.next.href).toBe(`${LIST}?itemsPerPage=30&page=2`);
    const last = await get(`${LIST}?page=2`, hal);
    expect(last.body._embedded.item).toHaveLength(8);
    expect(last.body._links).not.toHaveProperty("next");
    const beyond = await get(`${LIST}?page=9`, hal);
    expect(beyond.status).toBe(200);
    expect(beyond.body).not.toHaveProperty("_embedded");
    expect(beyond.body._links).not.toHaveProperty("item");
    expect(beyond.body._links.last.href).toBe(`${LIST}?page=2`);
    expect(beyond.body.totalItems).toBe(38);
  });

  it("serves a bare array for application/json", async () => {
    const response = await get(`${LIST}?itemsPerPage=5`, json);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(Array.isArray(response.body)).toBe(true);
    expect(response.body).toHaveLength(5);
    expect(Object.keys(response.body[0]).sort()).toEqual(
      ["accounted", "deliveryCount", "domain", "email", "expiresOn", "firstSeenOn", "id", "lastSeenOn", "type"]);
  });

  it("answers 406 when Accept rules out every format", async () => {
    const response = await get(LIST, { accept: "text/html" });
    expect(response.status).toBe(406);
    expect(response.body.status).toBe(406);
  });

  it("pages with itemsPerPage up to 100 and rejects invalid paging with 400", async () => {
    expect((await get(`${LIST}?itemsPerPage=500`, hal)).body.itemsPerPage).toBe(100);
    for (const query of ["page=0", "page=abc", "itemsPerPage=0", "itemsPerPage=-3", "page=1.5", "page=99999999999"]) {
      const response = await get(`${LIST}?${query}`, hal);
      expect(response.status, query).toBe(400);
      expect(response.body["@type"]).toBe("hydra:Error");
    }
  });

  it("serves each member at its @id", async () => {
    const list = await get(`${LIST}?email=bob@corp.test`, hydra);
    const iri = list.body["hydra:member"][0]["@id"];
    const item = await get(iri, hydra);
    expect(item.status).toBe(200);
    expect(item.body).toMatchObject({ "@context": "/api/v2/contexts/AccountedEmail", "@id": iri, "@type": "AccountedEmail", email: "bob@corp.test" });
    expect((await get(`${LIST}/999999`, hydra)).status).toBe(404);
  });
});

describe("accounted-email filters", () => {
  const emails = async (query: string) => {
    const response = await get(`${LIST}?${query}&itemsPerPage=100`, json);
    expect(response.status, query).toBe(200);
    return (response.body as { email: string }[]).map((r) => r.email);
  };

  it("filters by email with operators, case-insensitively", async () => {
    expect(await emails("email[eq]=anna.smith@corp.test")).toEqual(["Anna.Smith@Corp.Test"]);
    expect(await emails("email=BOB@CORP.TEST")).toEqual(["bob@corp.test"]);
    expect(await emails("email[contains]=CORP")).toEqual(["Anna.Smith@Corp.Test", "bob@corp.test", "shared@corp.test"]);
    expect(await emails("email[start]=user3")).toEqual(["user30@example.test", "user31@example.test", "user32@example.test", "user33@example.test", "user34@example.test", "user35@example.test"]);
    expect(await emails("email[end]=@corp.test&email[neq]=bob@corp.test")).toEqual(["Anna.Smith@Corp.Test", "shared@corp.test"]);
    expect(await emails("email[in]=bob@corp.test,USER01@example.test")).toEqual(["user01@example.test", "bob@corp.test"]);
    expect(await emails("email[ncontains]=example")).toHaveLength(3);
    // LIKE wildcards are literal characters, not patterns.
    for (const query of ["email[eq]=user%25@example.test", "email[contains]=%25", "email[start]=user_1", "email[end]=%25.test", "email[contains]=%5C"]) {
      expect(await emails(query), query).toEqual([]);
    }
  });

  it("matches addresses holding LIKE metacharacters literally", async () => {
    const odd = await system.db.prisma.accountedEmail.create({ data: row("A_b%c\\d@odd.test", 60) });
    try {
      expect(await emails("email=a_b%25c%5Cd@ODD.test")).toEqual(["A_b%c\\d@odd.test"]);
      expect(await emails("email[contains]=_B%25C%5C")).toEqual(["A_b%c\\d@odd.test"]);
      expect(await emails("email[end]=%5Cd@odd.test")).toEqual(["A_b%c\\d@odd.test"]);
    } finally {
      await system.db.prisma.accountedEmail.delete({ where: { id: odd.id } });
    }
  });

  it("filters by domain, type and dates, and ignores parameters that name no filter", async () => {
    expect(await emails("domain=corp.test&type=functional")).toEqual(["shared@corp.test"]);
    expect(await emails("type[neq]=address")).toEqual(["shared@corp.test"]);
    expect(await emails("firstSeenOn[gte]=2024-05-01T10:00:00%2B00:00&domain[eq]=example.test")).toEqual(["user31@example.test", "user32@example.test", "user33@example.test", "user34@example.test", "user35@example.test"]);
    expect(await emails("accounted=false")).toEqual(["shared@corp.test"]);
    expect(await emails("colour=blue&domain=corp.test")).toHaveLength(3);
  });

  it("counts the filtered set", async () => {
    const response = await get(`${LIST}?domain=corp.test&itemsPerPage=1`, hydra);
    expect(response.body["hydra:totalItems"]).toBe(3);
    expect(response.body["hydra:view"]["hydra:last"]).toBe(`${LIST}?domain=corp.test&itemsPerPage=1&page=3`);
  });

  it("shows a Hydra view for a filtered single page", async () => {
    const response = await get(`${LIST}?domain=corp.test`, hydra);
    expect(response.body["hydra:view"]).toEqual({ "@id": `${LIST}?domain=corp.test`, "@type": "hydra:PartialCollectionView" });
  });

  it("sorts with order[field]", async () => {
    expect(await emails("domain=corp.test&order[email]=desc")).toEqual(["shared@corp.test", "bob@corp.test", "Anna.Smith@Corp.Test"]);
    expect(await emails("domain=corp.test&order[deliveryCount]=desc")).toEqual(["shared@corp.test", "bob@corp.test", "Anna.Smith@Corp.Test"]);
  });

  it("reports an unknown operator as a 422 ConstraintViolationList", async () => {
    const response = await get(`${LIST}?email[xx]=a`, hydra);
    expect(response.status).toBe(422);
    const message = 'Unsupported operator "xx" for "email"; allowed: eq, neq, contains, ncontains, start, end, in.';
    expect(response.body).toEqual({
      "@context": "/api/v2/contexts/ConstraintViolationList", "@type": "ConstraintViolationList",
      "hydra:title": "An error occurred", "hydra:description": `email: ${message}`,
      violations: [{ propertyPath: "email", message }],
      title: "An error occurred", detail: `email: ${message}`, status: 422,
    });
  });

  it("lists every violation at once, including malformed values and directions", async () => {
    const response = await get(`${LIST}?email[gt]=a&deliveryCount[gt]=many&type=robot&order[email]=up`, hal);
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(response.body.violations.map((v: { propertyPath: string }) => v.propertyPath).sort()).toEqual(["deliveryCount", "email", "order[email]", "type"]);
  });
});

describe("/api/v2 routing", () => {
  it("answers an unknown path with 404 in the error shape", async () => {
    const response = await get("/api/v2/no-such-thing");
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ "@type": "hydra:Error", status: 404, title: "An error occurred" });
  });

  it("answers a wrong method with 405 and Allow", async () => {
    const response = await system.request("DELETE", "/api/v2/login");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect(response.body.status).toBe(405);
    const list = await system.request("POST", LIST, { body: {} });
    expect(list.status).toBe(405);
    expect(list.headers.get("allow")).toBe("GET");
  });
});

describe("/api/v2 methods", () => {
  it("answers OPTIONS with Allow, HEAD like GET without a body", async () => {
    const options = await system.request("OPTIONS", "/api/v2/login");
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("POST");
    const head = await system.request("HEAD", LIST, { headers: { "x-esg-auth-token": token } });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
  });

  it("refuses oversized bodies in the error shape", async () => {
    const response = await system.request("POST", "/api/v2/login", { raw: "x".repeat(2 * 1024 * 1024), headers: { "content-type": "application/json" } });
    expect(response.status).toBe(413);
    expect(response.body["@type"]).toBe("hydra:Error");
  });
});

describe("no N+1", () => {
  it("runs the same number of SQL statements for 5 and for 50 rows", async () => {
    const seed = (from: number, to: number) => system.db.prisma.accountedEmail.createMany({
      data: Array.from({ length: to - from }, (_, i) => row(`n${from + i}@batch.test`, from + i)),
    });
    const measure = async () => {
      const before = system.db.statements();
      const response = await get(`${LIST}?domain=batch.test&itemsPerPage=100`, hydra);
      expect(response.status).toBe(200);
      return { statements: system.db.statements() - before, count: response.body["hydra:member"].length };
    };
    await seed(0, 5);
    const five = await measure();
    await seed(5, 50);
    const fifty = await measure();
    expect(five.count).toBe(5);
    expect(fifty.count).toBe(50);
    expect(fifty.statements).toBe(five.statements);
  });
});

describe("GraphQL", () => {
  it("does not expose authenticateGatewayToken in the supergraph", async () => {
    const response = await system.graphql("query($t: String!) { authenticateGatewayToken(token: $t) { userId } }", { t: token });
    expect(response.data).toBeUndefined();
    expect(response.errors?.[0].message).toMatch(/Cannot query field "authenticateGatewayToken"/);
  });

  it("signs in and lists accounted emails with the token", async () => {
    const signIn = await system.graphql<{ gatewayLogin: { token: string } }>(
      "mutation($u: String!, $p: String!) { gatewayLogin(username: $u, password: $p) { token expiresAt } }",
      { u: "admin", p: GATEWAY_ADMIN_PASSWORD });
    const graphToken = signIn.data!.gatewayLogin.token;
    const query = `query($f: AccountedEmailFilter) { accountedEmails(filter: $f, itemsPerPage: 2) { totalItems itemsPerPage items { email firstSeenOn } } }`;
    const list = await system.graphql<{ accountedEmails: { totalItems: number; items: { email: string }[] } }>(
      query, { f: { domain: [{ value: "corp.test" }] } }, { headers: { "x-esg-auth-token": graphToken } });
    expect(list.data?.accountedEmails.totalItems).toBe(3);
    expect(list.data?.accountedEmails.items).toHaveLength(2);

    const anonymous = await system.graphql(query, {});
    expect(anonymous.errors?.[0].extensions?.code).toBe("gateway_token_required");

    const bad = await system.graphql(query, { f: { email: [{ operator: "xx", value: "a" }] } }, { headers: { "x-esg-auth-token": graphToken } });
    expect(bad.errors?.[0].extensions).toMatchObject({
      code: "constraint_violation",
      data: { violations: [{ propertyPath: "email", message: expect.stringContaining('Unsupported operator "xx"') }] },
    });
  });
});

describe("first start", () => {
  it("creates admin with a generated password printed once, unless one is configured", async () => {
    const db = await openDatabase("memory:");
    try {
      await applyMigrations(db);
      const printed: string[] = [];
      const config = { ...system.config, gatewayAdminPassword: undefined, logLevel: "info" as const };
      await ensureAdministrator({ db, config }, (line) => printed.push(line));
      await ensureAdministrator({ db, config }, (line) => printed.push(line));
      expect(printed).toHaveLength(1);
      const password = /password "([^"]+)"/.exec(printed[0])?.[1];
      expect(password).toMatch(/^[\w-]{24}$/);
      await expect(gatewayLogin({ db, config }, "admin", password!)).resolves.toHaveProperty("token");
      expect(await db.prisma.gatewayUser.findMany({ select: { username: true, roles: true } })).toEqual([{ username: "admin", roles: ["admin"] }]);
    } finally {
      await db.close();
    }
  });

  it("keeps the token check for the router alone", async () => {
    const gateway = system.subgraphs.find((s) => s.name === "gateway")!;
    const response = await fetch(gateway.url, {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "query($t: String!) { authenticateGatewayToken(token: $t) { userId } }", variables: { t: token } }),
    });
    const body = await response.json() as { errors?: { extensions?: { code?: string } }[] };
    expect(body.errors?.[0].extensions?.code).toBe("gateway_router_only");
  });
});

describe("recordDelivery", () => {
  const ctx = { get db() { return system.db; } };
  it("keeps first and last seen and the delivery count; a single day does not count", async () => {
    const first = await recordDelivery(ctx, { address: "New.User@Deliveries.Test", at: new Date("2024-07-30T08:00:00Z") });
    expect(first).toMatchObject({ address: "new.user@deliveries.test", domain: "deliveries.test", deliveryCount: 1, accounted: false });
    const sameDay = await recordDelivery(ctx, { address: "new.user@deliveries.test", at: new Date("2024-07-30T18:00:00Z") });
    expect(sameDay).toMatchObject({ deliveryCount: 2, accounted: false });
    const later = await recordDelivery(ctx, { address: "new.user@deliveries.test", at: new Date("2024-08-02T08:00:00Z") });
    expect(later).toMatchObject({ deliveryCount: 3, accounted: true });
    expect(later.firstSeenOn.toISOString()).toBe("2024-07-30T08:00:00.000Z");
    expect(later.expiresOn.toISOString()).toBe("2024-09-01T08:00:00.000Z");
    const functional = await recordDelivery(ctx, { address: "team@deliveries.test", type: "functional", at: new Date("2024-07-01T08:00:00Z") });
    const again = await recordDelivery(ctx, { address: "team@deliveries.test", at: new Date("2024-07-05T08:00:00Z") });
    expect(functional.accounted).toBe(false);
    expect(again.accounted).toBe(false);
    await expect(recordDelivery(ctx, { address: `${"x".repeat(250)}@a.test` })).rejects.toThrow(/valid email address/);
  });
});
