// core/v2/users/{user_id}/application-passwords over real HTTP, and the same through GraphQL:
// WordPress's application-passwords controller rules (owner first, then edit_user; the secret
// shown once; names unique per user; introspect answers the password the request used).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestSystem, type RequestOptions, type TestSystem } from "../helpers/system.ts";

let s: TestSystem;
const R = "/wp-json/core/v2";
type Auth = RequestOptions["auth"];

let editor: { id: number; auth: Auth };
let subscriber: { id: number; auth: Auth };

/** A user with a first application password made by the administrator through the route itself. */
async function userWithPassword(username: string, role: string): Promise<{ id: number; auth: Auth }> {
  const user = await s.request("POST", `${R}/users`, { auth: "admin", body: { username, email: `${username}@example.com`, password: "pw 1", roles: [role] } });
  expect(user.status).toBe(201);
  const created = await s.request("POST", `${R}/users/${user.body.id}/application-passwords`, { auth: "admin", body: { name: "first" } });
  expect(created.status).toBe(201);
  return { id: user.body.id, auth: { username, password: created.body.password } };
}

beforeAll(async () => {
  s = await startTestSystem();
  editor = await userWithPassword("ella", "editor");
  subscriber = await userWithPassword("sam", "subscriber");
});
afterAll(async () => { await s?.stop(); });

describe("application passwords (REST)", () => {
  test("creating answers 201 with the password once, in WordPress's 4-character groups, and it signs in", async () => {
    const r = await s.request("POST", `${R}/users/me/application-passwords`, { auth: subscriber.auth, body: { name: "My phone", app_id: "5e1c2a4f-2d1b-5f4e-9c3a-0f1e2d3c4b5a" } });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body)).toEqual(["uuid", "app_id", "name", "password", "created", "last_used", "last_ip", "_links"]);
    expect(r.body.password).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    expect(r.body).toMatchObject({ app_id: "5e1c2a4f-2d1b-5f4e-9c3a-0f1e2d3c4b5a", name: "My phone", last_used: null, last_ip: null });
    expect(r.body.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    const self = `http://example.test/wp-json/core/v2/users/${subscriber.id}/application-passwords/${r.body.uuid}`;
    expect(r.headers.get("location")).toBe(self);
    expect(r.body._links.self[0].href).toBe(self);

    // The new password signs in, and is then shown as used, but never again with its secret.
    const me = await s.request("GET", `${R}/users/me`, { auth: { username: "sam", password: r.body.password } });
    expect(me.body.id).toBe(subscriber.id);
    const read = await s.request("GET", `${R}/users/${subscriber.id}/application-passwords/${r.body.uuid}`, { auth: subscriber.auth });
    expect(read.status).toBe(200);
    expect(read.body.password).toBeUndefined();
    expect(read.body.last_used).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(read.body.last_ip).toBe("127.0.0.1");
  });

  test("names are required and unique per user", async () => {
    const missing = await s.request("POST", `${R}/users/me/application-passwords`, { auth: editor.auth, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe("rest_missing_callback_param");
    const blank = await s.request("POST", `${R}/users/me/application-passwords`, { auth: editor.auth, body: { name: "   " } });
    expect(blank.status).toBe(400);
    expect(blank.body.code).toBe("rest_invalid_param");
    const badApp = await s.request("POST", `${R}/users/me/application-passwords`, { auth: editor.auth, body: { name: "x", app_id: "not-a-uuid" } });
    expect([badApp.status, badApp.body.code]).toEqual([400, "rest_invalid_param"]);
    const badAppGraph = await s.graphql(`mutation { createApplicationPassword(input: { name: "x", appId: "nope" }) { password } }`, {}, { auth: editor.auth });
    expect(badAppGraph.errors?.[0].extensions?.code).toBe("rest_invalid_param");
    const duplicate = await s.request("POST", `${R}/users/me/application-passwords`, { auth: editor.auth, body: { name: "first" } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe("application_password_duplicate_name");
    // Another user may use the same name.
    const other = await s.request("POST", `${R}/users/1/application-passwords`, { auth: "admin", body: { name: "first" } });
    expect(other.status).toBe(201);
  });

  test("edit_user decides: themselves, or edit_users for others; the user is looked up first", async () => {
    const own = await s.request("GET", `${R}/users/${subscriber.id}/application-passwords`, { auth: subscriber.auth });
    expect(own.status).toBe(200);
    expect(own.body.map((p: { name: string }) => p.name)).toContain("first");
    expect(own.headers.get("allow")).toBe("GET, POST, DELETE");
    const others = await s.request("GET", `${R}/users/${editor.id}/application-passwords`, { auth: subscriber.auth });
    expect(others.status).toBe(403);
    expect(others.body.code).toBe("rest_cannot_list_application_passwords");
    const create = await s.request("POST", `${R}/users/${editor.id}/application-passwords`, { auth: subscriber.auth, body: { name: "sneaky" } });
    expect(create.body.code).toBe("rest_cannot_create_application_passwords");
    const visitor = await s.request("GET", `${R}/users/${editor.id}/application-passwords`);
    expect(visitor.status).toBe(401);
    const visitorMe = await s.request("GET", `${R}/users/me/application-passwords`);
    expect([visitorMe.status, visitorMe.body.code]).toEqual([401, "rest_not_logged_in"]);
    const nobody = await s.request("GET", `${R}/users/9999/application-passwords`);
    expect([nobody.status, nobody.body.code]).toEqual([404, "rest_user_invalid_id"]);
    // The administrator (edit_users) may manage anyone's.
    const admin = await s.request("GET", `${R}/users/${editor.id}/application-passwords`, { auth: "admin" });
    expect(admin.status).toBe(200);
  });

  test("renaming keeps the secret; unknown uuids are 404", async () => {
    const created = await s.request("POST", `${R}/users/me/application-passwords`, { auth: editor.auth, body: { name: "old name" } });
    const path = `${R}/users/${editor.id}/application-passwords/${created.body.uuid}`;
    const renamed = await s.request("PUT", path, { auth: editor.auth, body: { name: "new name" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ uuid: created.body.uuid, name: "new name" });
    expect(renamed.body.password).toBeUndefined();
    const stillWorks = await s.request("GET", `${R}/users/me`, { auth: { username: "ella", password: created.body.password } });
    expect(stillWorks.body.id).toBe(editor.id);
    const missing = await s.request("GET", `${R}/users/${editor.id}/application-passwords/00000000-0000-0000-0000-000000000000`, { auth: editor.auth });
    expect([missing.status, missing.body.code]).toEqual([404, "rest_application_password_not_found"]);
    // Another user's uuid under this user is not found either.
    const elsewhere = await s.request("GET", `${R}/users/${subscriber.id}/application-passwords/${created.body.uuid}`, { auth: "admin" });
    expect(elsewhere.status).toBe(404);
  });

  test("introspect answers the password of the request; revoking it signs nobody in", async () => {
    const created = await s.request("POST", `${R}/users/me/application-passwords`, { auth: editor.auth, body: { name: "to revoke" } });
    const auth = { username: "ella", password: created.body.password };
    const introspect = await s.request("GET", `${R}/users/me/application-passwords/introspect`, { auth });
    expect(introspect.status).toBe(200);
    expect(introspect.body).toMatchObject({ uuid: created.body.uuid, name: "to revoke" });
    const ofOther = await s.request("GET", `${R}/users/${subscriber.id}/application-passwords/introspect`, { auth: "admin" });
    expect(ofOther.body.code).toBe("rest_cannot_introspect_app_password_for_non_authenticated_user");

    const deleted = await s.request("DELETE", `${R}/users/${editor.id}/application-passwords/${created.body.uuid}`, { auth });
    expect(deleted.status).toBe(200);
    expect(deleted.body.deleted).toBe(true);
    expect(deleted.body.previous).toMatchObject({ uuid: created.body.uuid, name: "to revoke" });
    expect(deleted.body.previous._links).toBeUndefined();
    const after = await s.request("POST", `${R}/posts`, { auth, body: { title: "no" } });
    expect(after.status).toBe(401);
  });

  test("DELETE on the collection revokes all of a user's passwords and counts them", async () => {
    const user = await userWithPassword("dora", "author");
    await s.request("POST", `${R}/users/me/application-passwords`, { auth: user.auth, body: { name: "second" } });
    const r = await s.request("DELETE", `${R}/users/${user.id}/application-passwords`, { auth: "admin" });
    expect(r.body).toEqual({ deleted: true, count: 2 });
    const list = await s.request("GET", `${R}/users/${user.id}/application-passwords`, { auth: "admin" });
    expect(list.body).toEqual([]);
    const me = await s.request("GET", `${R}/users/me`, { auth: user.auth });
    expect(me.status).toBe(401);
  });
});

describe("application passwords (GraphQL)", () => {
  test("the same operations, and viewerCan tells who may manage them", async () => {
    const created = await s.graphql<{ createApplicationPassword: { password: string; applicationPassword: { uuid: string; userId: number } } }>(
      `mutation { createApplicationPassword(input: { name: "graph" }) { password applicationPassword { uuid userId } } }`, {}, { auth: subscriber.auth });
    expect(created.data?.createApplicationPassword.applicationPassword.userId).toBe(subscriber.id);
    const list = await s.graphql<{ applicationPasswords: { name: string }[] }>(`{ applicationPasswords { name } }`, {}, { auth: subscriber.auth });
    expect(list.data?.applicationPasswords.map((p) => p.name)).toContain("graph");
    const refused = await s.graphql(`{ applicationPasswords(userId: ${editor.id}) { name } }`, {}, { auth: subscriber.auth });
    expect(refused.errors?.[0].extensions?.code).toBe("rest_cannot_list_application_passwords");

    const can = `{ viewerCan { manageOwnApplicationPasswords manageApplicationPasswords } }`;
    expect((await s.graphql(can)).data).toEqual({ viewerCan: { manageOwnApplicationPasswords: false, manageApplicationPasswords: false } });
    expect((await s.graphql(can, {}, { auth: subscriber.auth })).data).toEqual({ viewerCan: { manageOwnApplicationPasswords: true, manageApplicationPasswords: false } });
    expect((await s.graphql(can, {}, { auth: "admin" })).data).toEqual({ viewerCan: { manageOwnApplicationPasswords: true, manageApplicationPasswords: true } });
  });
});
