// The identity header is signed once per identity and verified once per token (lib/identity.ts):
// what is remembered never outlives the token itself.
import crypto from "node:crypto";
import { afterEach, describe, expect, test, vi } from "vitest";
import { decodeJwt } from "jose";
import { signIdentity, verifyIdentity } from "../../lib/identity.ts";

const key = crypto.randomBytes(32);
const editor = { site: { userId: 7, roles: ["editor"] } };
afterEach(() => { vi.useRealTimers(); });

describe("identity tokens", () => {
  test("one identity is signed once while its token has time left, then afresh", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const first = await signIdentity(editor, key);
    expect(await signIdentity({ site: { userId: 7, roles: ["editor"] } }, key)).toBe(first);
    expect(await signIdentity({ site: { userId: 8, roles: ["editor"] } }, key)).not.toBe(first);
    vi.setSystemTime(Date.now() + 31_000);
    const renewed = await signIdentity(editor, key);
    expect(renewed).not.toBe(first);
    expect(decodeJwt(renewed).exp! - Date.now() / 1000).toBeGreaterThan(59);
  });

  test("a token verified before is refused once it has expired", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const token = await signIdentity({ site: { userId: 9, roles: ["author"] } }, key);
    expect(await verifyIdentity(token, key)).toEqual({ site: { userId: 9, roles: ["author"] } });
    vi.setSystemTime(Date.now() + 61_000);
    await expect(verifyIdentity(token, key)).rejects.toThrow();
  });

  test("a token verified with one key is refused with another", async () => {
    const token = await signIdentity(editor, key);
    await verifyIdentity(token, key);
    await expect(verifyIdentity(token, crypto.randomBytes(32))).rejects.toThrow();
  });
});
