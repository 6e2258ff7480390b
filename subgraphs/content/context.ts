// The content subgraph's per-request context: the caller, the database and fresh loaders.
import type { Config } from "../../lib/config.ts";
import type { Database, PrismaClient } from "../../lib/db.ts";
import type { Identity } from "../../lib/identity.ts";
import type { SubgraphContextBase } from "../../lib/subgraph.ts";
import { createLoaders, type ContentLoaders } from "./loaders.ts";
import { viewerOf, type Viewer } from "./permissions.ts";
import { siteClock, siteOptions, type SiteClock, type SiteOptions } from "./site/site.ts";

export interface Site { options: SiteOptions; clock: SiteClock; home: string }

export interface ContentContext extends SubgraphContextBase {
  /** The database, for what is kept across requests (lib/kept-until-write.ts); queries use `prisma`. */
  db: Database;
  prisma: PrismaClient;
  config: Config;
  viewer: Viewer | null;
  loaders: ContentLoaders;
  /** Site options, read once per request (or kept across requests: site.ts siteOptions). */
  site(): Promise<Site>;
}

export function createContentContext(db: Database, identity: Identity, config: Config): ContentContext {
  let site: Promise<Site> | undefined;
  return {
    identity,
    db,
    prisma: db.prisma,
    config,
    viewer: viewerOf(identity),
    loaders: createLoaders(db.prisma),
    site: () => (site ??= siteOptions(db).then((options) => ({ options, clock: siteClock(options), home: config.siteUrl }))),
  };
}
