// Gateway users. A fresh installation gets one administrator, `admin`, whose password comes
// from GATEWAY_ADMIN_PASSWORD or is generated and printed once.
import { Prisma } from "../../../generated/prisma/client.ts";
import type { GatewayContext } from "../context.ts";
import { generatePassword, hashPassword } from "./passwords.ts";

export const ADMIN_USERNAME = "admin";

/** Creates the first administrator when the gateway has no user yet; safe to run on every start. */
export async function ensureAdministrator(ctx: Pick<GatewayContext, "db" | "config">, print: (line: string) => void = console.log): Promise<void> {
  const { db, config } = ctx;
  if (await db.prisma.gatewayUser.count() > 0) {
    if (config.gatewayAdminPassword && config.logLevel !== "silent") {
      print("GATEWAY_ADMIN_PASSWORD is only read on first start; to change it run: npm run admin -- gateway reset-admin-password");
    }
    return;
  }
  const password = config.gatewayAdminPassword ?? generatePassword();
  try {
    await db.prisma.gatewayUser.create({
      data: { username: ADMIN_USERNAME, passwordHash: await hashPassword(password), roles: ["admin"] },
    });
  } catch (error) {
    // Another process installing the same database at the same moment created it first.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") return;
    throw error;
  }
  // The only copy of a generated password; LOG_LEVEL=silent suppresses it, so set
  // GATEWAY_ADMIN_PASSWORD when running silently.
  if (!config.gatewayAdminPassword && config.logLevel !== "silent") {
    print(`Email gateway administrator created: username "${ADMIN_USERNAME}", password "${password}"`);
  }
}

/**
 * Sets a gateway user's password (the administrator's when lost: `npm run admin -- gateway
 * reset-admin-password`), creating the administrator if it is gone, and ends their sessions.
 */
export async function setGatewayPassword(ctx: Pick<GatewayContext, "db">, username: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  const user = await ctx.db.prisma.gatewayUser.upsert({
    where: { username }, update: { passwordHash },
    create: { username, passwordHash, roles: username === ADMIN_USERNAME ? ["admin"] : [] },
  });
  await ctx.db.prisma.gatewaySession.deleteMany({ where: { userId: user.id } });
}
