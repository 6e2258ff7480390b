// Prisma CLI configuration. The JS engine with a driver adapter keeps every Prisma command
// offline (no engine binary download); see ARCHITECTURE.md "Known ground".
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PGlite } from "@electric-sql/pglite";
import { pgliteAdapter } from "./lib/pglite-adapter.ts";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema"),
  migrations: { path: path.join("prisma", "migrations") },
  // The CLI only needs a database for commands we do not use (we apply migrations in-process,
  // see lib/migrate.ts); an in-memory PGlite keeps it self-contained.
  adapter: async () => pgliteAdapter(new PGlite()),
});
