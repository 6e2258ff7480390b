// The email gateway subgraph's per-request context: the caller, the database, configuration and
// fresh per-request loaders. Domain functions take it (or the part they use) as first argument.
import type { Config } from "../../lib/config.ts";
import type { Database } from "../../lib/db.ts";
import type { Identity } from "../../lib/identity.ts";
import type { SubgraphContextBase } from "../../lib/subgraph.ts";
import { createLicensingLoaders, type LicensingLoaders } from "./licensing/loaders.ts";
import { createMailLoaders, type MailLoaders } from "./mail/loaders.ts";
import { createAddressLoaders, type AddressLoaders } from "./addresses/loaders.ts";

export interface GatewayContext extends SubgraphContextBase {
  db: Database;
  config: Config;
  loaders: LicensingLoaders & { mail: MailLoaders; addresses: AddressLoaders };
}

export function createGatewayContext(db: Database, identity: Identity, config: Config): GatewayContext {
  return { identity, db, config, loaders: { ...createLicensingLoaders({ db }), mail: createMailLoaders({ db }), addresses: createAddressLoaders({ db, identity }) } };
}
