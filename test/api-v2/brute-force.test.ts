// Guessing is bounded: after 10 failed sign-ins from one client (or against one account) within
// 15 minutes, the gateway login and application passwords answer 429 with Retry-After, without
// checking the password; a token can be revoked (logout) and then stops working.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADMIN_APP_PASSWORD, GATEWAY_ADMIN_PASSWORD, startTestSystem, type TestSystem } from "../helpers/system.ts";

let s: TestSystem;
beforeAll(async () => { s = await startTestSystem(); });
afterAll(async () => { await s?.stop(); });

const login = (username: string, password: string) => s.request("POST", "/api/v2/login", { body: { username, password } });

describe("gateway sign-in", () => {
  test("a token can be revoked: logout answers 204 and the token is refused afterwards", async () => {
    const { body } = await login("admin", GATEWAY_ADMIN_PASSWORD);
    const headers = { "x-esg-auth-token": body.token as string };
    expect((await s.request("GET", "/api/v2/licensing/accounted-email", { headers })).status).toBe(200);
    expect((await s.request("POST", "/api/v2/logout", { headers })).status).toBe(204);
    const after = await s.request("GET", "/api/v2/licensing/accounted-email", { headers });
    expect(after.status).toBe(401);
  });

  test("10 wrong passwords, then 429 with Retry-After even for the right one, over REST and GraphQL", async () => {
    for (let i = 0; i < 10; i++) expect((await login("admin", `wrong-${i}`)).status).toBe(401);
    const refused = await login("admin", GATEWAY_ADMIN_PASSWORD);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.body).toMatchObject({ status: 429 });
    const graph = await s.graphql("mutation { gatewayLogin(username: \"admin\", password: \"x\") { token } }");
    expect(graph.errors?.[0].extensions).toMatchObject({ code: "too_many_attempts", status: 429, data: { retryAfter: expect.any(Number) } });
  });
});

describe("application passwords", () => {
  test("10 wrong application passwords from one client, then 429 with Retry-After in WordPress's shape", async () => {
    const wrong = { username: "admin", password: "not the password at all" };
    for (let i = 0; i < 10; i++) expect((await s.request("POST", "/wp-json/core/v2/posts", { auth: wrong, body: { title: "x" } })).status).toBe(401);
    const refused = await s.request("GET", "/wp-json/core/v2/posts", { auth: { username: "admin", password: ADMIN_APP_PASSWORD } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(refused.body).toMatchObject({ code: "too_many_attempts", data: { status: 429 } });
  });
});
