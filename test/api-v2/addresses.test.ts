// The EmailAddress federation entity (keyed by the normalised address): its messages, licence
// record and restriction, resolved for a list of addresses with one fetch to the email gateway
// subgraph and a constant number of SQL statements, however long the list; scoped by role.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IDENTITY_HEADER, signIdentity, type Identity } from "../../lib/identity.ts";
import type { TestSystem } from "../helpers/system.ts";
import { startGatewaySystem } from "./fixtures.ts";
import { mail } from "./messages-fixtures.ts";

let system: TestSystem;
let token: string;
const ADMIN: Identity = { gateway: { userId: 1, username: "admin", roles: ["admin"] } };
let USER: Identity;

interface Result<T> { data?: T; errors?: { message: string; path?: unknown[]; extensions?: Record<string, unknown> }[] }

/** Asks the email gateway subgraph directly, as the router would for `identity`. */
async function subgraph<T>(identity: Identity, query: string, variables: Record<string, unknown> = {}): Promise<Result<T>> {
  const url = system.subgraphs.find((s) => s.name === "gateway")!.url;
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", [IDENTITY_HEADER]: await signIdentity(identity, system.config.secretKey) },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as Result<T>;
}

const ENTITIES = `query($r: [_Any!]!) { _entities(representations: $r) { ... on EmailAddress {
  address messages(first: 2) { totalItems items { id from sender } } licence { email deliveryCount } restriction { reason messageCount } restricted
} } }`;
type Entity = { address: string; messages: { totalItems: number; items: { id: string; from: string; sender: string | null }[] }; licence: { email: string; deliveryCount: number } | null; restriction: { reason: string; messageCount: number } | null; restricted: boolean };

const addressesOf = (n: number) => Array.from({ length: n }, (_, i) => `user${i}@corp.test`);

beforeAll(async () => {
  const gateway = await startGatewaySystem();
  ({ system, token } = gateway);
  // 40 addresses, each receiving (i % 4) + 1 messages; user0 also sends outbound spam.
  const records = addressesOf(40).flatMap((address, i) => Array.from({ length: (i % 4) + 1 }, (_, k) => mail(i * 10 + k, { id: `A${i}K${k}`, recipients: [address] })));
  records.push(mail(999, { id: "SPAM0", direction: "outbound", sender: "user0@corp.test", recipients: ["x@far.example"], result: "spam", deliveryResult: "discarded" }));
  const r = await system.request("POST", "/api/v2/messages/ingest", { headers: { "x-esg-auth-token": token }, body: records });
  expect(r.status, r.text).toBe(200);
  const user = await system.db.prisma.gatewayUser.create({ data: { username: "user3", passwordHash: "x", roles: ["user"], email: "User3@Corp.Test" } });
  USER = { gateway: { userId: user.id, username: "user3", roles: ["user"] } };
});
afterAll(async () => { await system?.stop(); });

describe("EmailAddress", () => {
  it("normalises the key and answers messages, licence record and restriction", async () => {
    const result = await subgraph<{ _entities: Entity[] }>(ADMIN, ENTITIES, { r: [{ __typename: "EmailAddress", address: "  USER0@Corp.Test " }, { __typename: "EmailAddress", address: "user3@corp.test" }, { __typename: "EmailAddress", address: "nobody@corp.test" }] });
    expect(result.errors).toBeUndefined();
    const [u0, u3, nobody] = result.data!._entities;
    expect(u0.address).toBe("user0@corp.test");
    expect(u0.messages.totalItems).toBe(2); // one received, one sent
    expect(u0.messages.items.map((m) => m.id)).toEqual(["SPAM0", "A0K0"]);
    expect(u0.restriction).toEqual({ reason: "outbound_spam", messageCount: 1 });
    expect(u0.restricted).toBe(true);
    expect(u3.messages.totalItems).toBe(4);
    expect(u3.messages.items.map((m) => m.id)).toEqual(["A3K3", "A3K2"]);
    expect(u3.licence).toEqual({ email: "user3@corp.test", deliveryCount: 4 });
    expect(u3.restricted).toBe(false);
    expect(nobody).toMatchObject({ messages: { totalItems: 0, items: [] }, licence: null, restriction: null, restricted: false });
  });

  it("costs the same number of SQL statements for 3 addresses as for 40", async () => {
    const count = async (n: number) => {
      const before = system.db.statements();
      const result = await subgraph<{ _entities: Entity[] }>(ADMIN, ENTITIES, { r: addressesOf(n).map((address) => ({ __typename: "EmailAddress", address })) });
      expect(result.errors).toBeUndefined();
      expect(result.data!._entities).toHaveLength(n);
      return system.db.statements() - before;
    };
    const small = await count(3);
    const large = await count(40);
    expect(large).toBe(small);
    expect(small).toBeLessThanOrEqual(8);
  });

  it("shows a user only its own address's mail, with the From header, and no licence record", async () => {
    const query = `query($r: [_Any!]!) { _entities(representations: $r) { ... on EmailAddress { address messages { totalItems items { from sender } } } } }`;
    const result = await subgraph<{ _entities: { address: string; messages: { totalItems: number; items: { from: string; sender: string | null }[] } }[] }>(USER, query, { r: [{ __typename: "EmailAddress", address: "user3@corp.test" }, { __typename: "EmailAddress", address: "user4@corp.test" }] });
    const [own, other] = result.data!._entities;
    expect(own.messages.totalItems).toBe(4);
    expect(own.messages.items[0]).toEqual({ from: expect.stringContaining("<news"), sender: null });
    expect(other.messages).toEqual({ totalItems: 0, items: [] });
    const licence = await subgraph(USER, `query($r: [_Any!]!) { _entities(representations: $r) { ... on EmailAddress { licence { email } } } }`, { r: [{ __typename: "EmailAddress", address: "user3@corp.test" }] });
    expect(licence.errors?.[0].extensions?.code).toBe("gateway_forbidden");
  });

  it("needs a signed-in gateway user for its mail", async () => {
    const result = await subgraph({}, `query($r: [_Any!]!) { _entities(representations: $r) { ... on EmailAddress { address messages { totalItems } } } }`, { r: [{ __typename: "EmailAddress", address: "user3@corp.test" }] });
    expect(result.errors?.[0].extensions?.code).toBe("gateway_token_required");
  });
});
