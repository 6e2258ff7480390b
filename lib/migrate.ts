// Applies pending migrations from prisma/migrations at start-up, in-process, through the same
// driver the server uses (the Prisma CLI's `migrate deploy` cannot run on PostgreSQL offline).
// Each migration runs in its own transaction under an advisory lock and is recorded in
// `_prisma_migrations` with Prisma's own columns, so the full Prisma CLI stays compatible.
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { fileURLToPath } from "node:url";
import type { Database } from "./db.ts";

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "prisma", "migrations");
const LOCK_ID = 727_073_690;

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** Returns the names of the migrations it applied. */
export async function applyMigrations(db: Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  const names = fs.readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(dir, e.name, "migration.sql")))
    .map((e) => e.name)
    .sort();
  const applied: string[] = [];
  for (const name of names) {
    const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
    const checksum = crypto.createHash("sha256").update(sql).digest("hex");
    const done = await db.transaction(async (run) => {
      await run(`SELECT pg_advisory_xact_lock(${LOCK_ID})`);
      await run(CREATE_TABLE);
      const rows = await run(
        `SELECT 1 FROM "_prisma_migrations" WHERE migration_name = ${quote(name)} AND finished_at IS NOT NULL AND rolled_back_at IS NULL`,
      );
      if (rows.length > 0) return true;
      await run(sql);
      await run(`INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
        VALUES (${quote(crypto.randomUUID())}, ${quote(checksum)}, now(), ${quote(name)}, 1)`);
      return false;
    });
    if (!done) applied.push(name);
  }
  return applied;
}
