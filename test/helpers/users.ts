// A site user with an application password, made the way a client would: the users route, then
// WordPress's application-passwords route (the password is shown once, in its answer).
import { expect } from "vitest";
import type { RequestOptions, TestSystem } from "./system.ts";

export interface SignedInUser { id: number; auth: NonNullable<RequestOptions["auth"]> }

export async function createUserWithPassword(s: TestSystem, username: string, roles: string[], extra: Record<string, unknown> = {}): Promise<SignedInUser> {
  const user = await s.request("POST", "/wp-json/core/v2/users", { auth: "admin", body: { username, email: `${username}@example.com`, password: "pass word 1", roles, ...extra } });
  expect(user.status).toBe(201);
  const created = await s.request("POST", `/wp-json/core/v2/users/${user.body.id}/application-passwords`, { auth: "admin", body: { name: "test" } });
  expect(created.status).toBe(201);
  return { id: user.body.id, auth: { username, password: created.body.password as string } };
}
