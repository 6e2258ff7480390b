// While the project has not shipped, its whole schema is one `init` migration: this rewrites it
// from prisma/schema and regenerates the client. Once a release exists, add new migrations
// instead (prisma migrate diff --from-schema-datamodel <previous> --to-schema-datamodel prisma/schema).
import { execFileSync } from "node:child_process";
import fs from "node:fs";

const sql = execFileSync("npx", ["prisma", "migrate", "diff", "--from-empty", "--to-schema-datamodel", "prisma/schema", "--script"], { encoding: "utf8" });
fs.writeFileSync("prisma/migrations/20261122000000_init/migration.sql", sql);
execFileSync("npx", ["prisma", "generate"], { stdio: "inherit" });
