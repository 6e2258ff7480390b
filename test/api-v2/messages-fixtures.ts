// Mail the messages, ingest, addresses and restricted-sender tests share: records as the MTA and
// the scanners would leave them, and a way to add gateway users of each role.
import { hashPassword } from "../../subgraphs/gateway/auth/passwords.ts";
import type { TestSystem } from "../helpers/system.ts";

export const T0 = Date.parse("2024-05-01T09:30:12Z");
export const HOUR = 60 * 60 * 1000;
export const DAY = 24 * HOUR;

export interface RecordOverrides { [key: string]: unknown }

/** One inbound clean message delivered to anna@corp.test, at T0 + i hours; overrides replace fields. */
export function mail(i: number, overrides: RecordOverrides = {}): Record<string, unknown> {
  return {
    id: `Q${String(i).padStart(6, "0")}`,
    messageId: `<m${i}@example.org>`,
    receivedOn: new Date(T0 + i * HOUR).toISOString(),
    sender: `news${i % 3}@example.org`,
    recipients: ["anna@corp.test"],
    headerFrom: `"News ${i % 3}" <news${i % 3}@example.org>`,
    subject: `Weekly ${i}`,
    senderIp: "203.0.113.7",
    hostname: i % 2 ? "esg2.corp.test" : "esg1.corp.test",
    nodeId: i % 2 ? "node-b" : "node-a",
    direction: "inbound",
    size: 1000 + i,
    result: "clean",
    score: 0.5,
    deliveryResult: "delivered",
    uris: [`https://links${i % 2}.example.net/a?b=${i}`],
    analysis: [{ engine: "antispam", result: "clean", detail: "score 0.5" }],
    ...overrides,
  };
}

export async function addGatewayUser(system: TestSystem, username: string, roles: string[], extra: { email?: string; domains?: string[] } = {}): Promise<string> {
  const password = `${username}-password-123`;
  await system.db.prisma.gatewayUser.create({ data: { username, passwordHash: await hashPassword(password), roles, ...extra } });
  const login = await system.request("POST", "/api/v2/login", { body: { username, password } });
  return login.body.token as string;
}
