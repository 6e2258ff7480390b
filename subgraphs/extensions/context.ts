// The extensions subgraph's per-request context: the caller, the database, configuration and
// fresh loaders (so a list or a batch of lookups costs a fixed number of statements). Domain
// functions take it first; their writes clear the loaders, as batches mix writes and reads.
import type { Config } from "../../lib/config.ts";
import type { Database, PrismaClient } from "../../lib/db.ts";
import type { Identity } from "../../lib/identity.ts";
import type { SubgraphContextBase } from "../../lib/subgraph.ts";
import { createLoaders, type ExtensionsLoaders } from "./languages/loaders.ts";

export interface ExtensionsContext extends SubgraphContextBase {
  prisma: PrismaClient;
  config: Config;
  loaders: ExtensionsLoaders;
}

export function createExtensionsContext(db: Database, identity: Identity, config: Config): ExtensionsContext {
  return { identity, prisma: db.prisma, config, loaders: createLoaders(db, config.siteUrl) };
}
