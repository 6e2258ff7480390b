// What the /api/v2 test files share: the system under test, a signed-in client, and rows as
// the nightly accounting would leave them.
import { GATEWAY_ADMIN_PASSWORD, startTestSystem, type TestSystem } from "../helpers/system.ts";

export const DAY = 24 * 60 * 60 * 1000;
export const RFC3339_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;
const BASE_TIME = Date.parse("2024-05-01T09:30:12Z");

export const LIST = "/api/v2/licensing/accounted-email";
export const hydra = { accept: "application/ld+json" };
export const hal = { accept: "application/hal+json" };
export const json = { accept: "application/json" };

/** Rows as the nightly accounting would leave them. */
export function row(address: string, i: number, type = "address") {
  const firstSeenOn = new Date(BASE_TIME + i * 60_000);
  const lastSeenOn = new Date(firstSeenOn.getTime() + 3 * DAY);
  return {
    address, type, domain: address.slice(address.indexOf("@") + 1).toLowerCase(),
    firstSeenOn, lastSeenOn, expiresOn: new Date(lastSeenOn.getTime() + 30 * DAY),
    deliveryCount: i + 1, accounted: type !== "functional",
  };
}

export interface GatewayTestSystem {
  system: TestSystem;
  /** The administrator's token, signed in at start. */
  token: string;
  login(username?: string, password?: string): ReturnType<TestSystem["request"]>;
  /** GET with the administrator's token (headers may replace it). */
  get(path: string, headers?: Record<string, string>): ReturnType<TestSystem["request"]>;
}

export async function startGatewaySystem(): Promise<GatewayTestSystem> {
  const system = await startTestSystem();
  const login = (username = "admin", password = GATEWAY_ADMIN_PASSWORD) =>
    system.request("POST", "/api/v2/login", { body: { username, password } });
  const token: string = (await login()).body.token;
  const get = (path: string, headers: Record<string, string> = {}) =>
    system.request("GET", path, { headers: { "x-esg-auth-token": token, ...headers } });
  return { system, token, login, get };
}
