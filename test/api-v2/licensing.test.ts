// The email gateway's licensing area over /api/v2 and GraphQL: the accounted-email collection in
// Hydra, HAL and plain JSON, operator filters and their violations, bounds, and the domain rules.
// (Subgraph side: subgraphs/gateway/licensing/.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GATEWAY_ADMIN_PASSWORD, type TestSystem } from "../helpers/system.ts";
import { OPERATORS } from "../../lib/gateway/collection-rules.ts";
import { LIST, RFC3339_OFFSET, hal, hydra, json, row, startGatewaySystem, type GatewayTestSystem } from "./fixtures.ts";

let gateway: GatewayTestSystem;
let system: TestSystem;
let token: string;
const get = (path: string, headers?: Record<string, string>) => gateway.get(path, headers);

beforeAll(async () => {
  gateway = await startGatewaySystem();
  ({ system, token } = gateway);
  // 35 ordinary addresses plus three on corp.test, one of them a functional user: 38 rows.
  const rows = Array.from({ length: 35 }, (_, i) => row(`user${String(i + 1).padStart(2, "0")}@example.test`, i));
  rows.push(row("Anna.Smith@Corp.Test", 40), row("bob@corp.test", 41), row("shared@corp.test", 42, "functional"));
  await system.db.prisma.accountedEmail.createMany({ data: rows });
});

afterAll(async () => { await system?.stop(); });

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


describe("accounted-email violations by property type", () => {
  it("names the property and the operators its type allows", async () => {
    const types = { email: "string", accounted: "boolean", deliveryCount: "integer", type: "enum", lastSeenOn: "datetime" } as const;
    for (const [name, type] of Object.entries(types)) {
      const response = await get(`${LIST}?${name}[like]=x`, json);
      expect(response.status, name).toBe(422);
      expect(response.body["@type"]).toBe("ConstraintViolationList");
      expect(response.body.violations).toEqual([{ propertyPath: name, message: `Unsupported operator "like" for "${name}"; allowed: ${OPERATORS[type].join(", ")}.` }]);
    }
  });

  it("answers integers beyond int32 with a violation, not a server error", async () => {
    const response = await get(`${LIST}?deliveryCount[gt]=99999999999&id=-99999999999`, hydra);
    expect(response.status).toBe(422);
    expect(response.body.violations.map((v: { propertyPath: string }) => v.propertyPath).sort()).toEqual(["deliveryCount", "id"]);
    expect(response.body.violations[0].message).toMatch(/out of range/);
  });

  it("refuses an address longer than 254 characters in a filter, quoting only its start (seed 001 §8)", async () => {
    const long = `${"a".repeat(250)}@example.com`;
    const response = await get(`${LIST}?email=${long}`, hydra);
    expect(response.status).toBe(422);
    expect(response.body.violations).toEqual([{ propertyPath: "email", message: `The address "${long.slice(0, 64)}…" is longer than 254 characters.` }]);
    expect((await get(`${LIST}?email[in]=a@x.test,${long}`, hydra)).status).toBe(422);
    expect((await get(`${LIST}?email=${"a".repeat(240)}@example.com`, hydra)).status).toBe(200);
  });
});

describe("GraphQL bounds", () => {
  const asAdmin = () => ({ headers: { "x-esg-auth-token": token } });
  const list = (args: string) => `query($p: Int!, $n: Int!) { accountedEmails(${args}) { page itemsPerPage totalItems } }`;

  it("answers paging outside the bounds with BAD_USER_INPUT (400), never an internal error", async () => {
    const cases: [Record<string, number>, string][] = [
      [{ p: 0, n: 10 }, "Page should not be less than 1."],
      [{ p: 1, n: 0 }, "Items per page should not be less than 1."],
      [{ p: 1, n: -3 }, "Items per page should not be less than 1."],
      [{ p: 2 ** 31 - 1, n: 100 }, "Page is out of range."],
    ];
    for (const [variables, message] of cases) {
      const response = await system.graphql(list("page: $p, itemsPerPage: $n"), variables, asAdmin());
      expect(response.errors?.[0], JSON.stringify(variables)).toMatchObject({ message, extensions: { code: "BAD_USER_INPUT", http: { status: 400 } } });
    }
  });

  it("clamps itemsPerPage to the same maximum the REST layer documents", async () => {
    const response = await system.graphql<{ accountedEmails: { itemsPerPage: number } }>(list("page: $p, itemsPerPage: $n"), { p: 1, n: 101 }, asAdmin());
    expect(response.errors).toBeUndefined();
    expect(response.data?.accountedEmails.itemsPerPage).toBe(100);
  });

  it("refuses values beyond int32 as user input", async () => {
    const huge = await system.graphql(list("page: $p, itemsPerPage: $n"), { p: 99999999999, n: 10 }, asAdmin());
    expect(huge.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    const filter = await system.graphql(
      "query($f: AccountedEmailFilter) { accountedEmails(filter: $f) { totalItems } }",
      { f: { deliveryCount: [{ operator: "gt", value: "99999999999" }] } }, asAdmin());
    expect(filter.errors?.[0].extensions).toMatchObject({ code: "constraint_violation", http: { status: 422 }, data: { violations: [{ propertyPath: "deliveryCount" }] } });
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

    // The operator table is an enum: a name outside it is refused before anything runs...
    const unknown = await system.graphql(query, { f: { email: [{ operator: "xx", value: "a" }] } }, { headers: { "x-esg-auth-token": graphToken } });
    expect(unknown.errors?.[0].message).toContain("GatewayFilterOperator");
    // ...and an operator the field's type does not allow is the same violation REST answers.
    const bad = await system.graphql(query, { f: { email: [{ operator: "gt", value: "a" }] } }, { headers: { "x-esg-auth-token": graphToken } });
    expect(bad.errors?.[0].extensions).toMatchObject({
      code: "constraint_violation",
      data: { violations: [{ propertyPath: "email", message: expect.stringContaining('Unsupported operator "gt"') }] },
    });
  });
});
