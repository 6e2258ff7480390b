// The forms plugins' options and transients (one JSON value per name; a transient has an expiry).
import type { Prisma } from "../../../generated/prisma/client.ts";
import type { PrismaClient } from "../../../lib/db.ts";

type Db = Pick<PrismaClient, "formsOption">;

/** An option's value, or undefined when unset or expired. */
export async function readOption<T>(db: Db, name: string, now = new Date()): Promise<T | undefined> {
  const row = await db.formsOption.findUnique({ where: { name } });
  if (!row || (row.expiresAt && row.expiresAt <= now)) return undefined;
  return row.value as T;
}

export async function writeOption(db: Db, name: string, value: unknown, expiresAt: Date | null = null): Promise<void> {
  const json = value as Prisma.InputJsonValue;
  await db.formsOption.upsert({ where: { name }, create: { name, value: json, expiresAt }, update: { value: json, expiresAt } });
}

export async function deleteOption(db: Db, name: string): Promise<boolean> {
  const { count } = await db.formsOption.deleteMany({ where: { name } });
  return count > 0;
}
