// The Prisma driver adapter for PGlite. Kept apart from db.ts, which needs the generated client:
// prisma.config.ts uses this before the client exists (on a fresh clone, `prisma generate` itself).
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";

/**
 * pglite-prisma-adapter is built against an older @prisma/driver-adapter-utils than the client;
 * the runtime contract is the same (checked by the whole test suite), only the nominal types differ.
 */
export const pgliteAdapter = (db: PGlite) => new PrismaPGlite(db) as unknown as SqlMigrationAwareDriverAdapterFactory;
