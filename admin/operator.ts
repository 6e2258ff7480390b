// The admin command's session: the same configuration and database as `npm start` (DATABASE_URL,
// DATA_DIR, SECRET_KEY read by lib/config.ts), migrated and installed like a first start, and the
// subgraphs' own contexts with the operator acting as a site administrator. The domain rules are
// the subgraphs' functions, called directly: nothing here decides what a user may do.
import { loadConfig, type Config } from "../lib/config.ts";
import type { Database } from "../lib/db.ts";
import { prepareDatabase } from "../router/system.ts";
import { createContentContext, type ContentContext } from "../subgraphs/content/context.ts";
import { createGatewayContext, type GatewayContext } from "../subgraphs/gateway/context.ts";

export interface Operator {
  config: Config;
  db: Database;
  /** The content subgraph's context, as an administrator (user id 0: no account of its own). */
  content(): ContentContext;
  gateway(): GatewayContext;
}

/** Opens the database for one command and always closes it: a PGlite directory admits one process. */
export async function withOperator<T>(work: (operator: Operator) => Promise<T>): Promise<T> {
  const config = loadConfig(process.env);
  const db = await prepareDatabase(config);
  try {
    return await work({
      config, db,
      content: () => createContentContext(db, { site: { userId: 0, roles: ["administrator"] } }, config),
      gateway: () => createGatewayContext(db, { gateway: { userId: 0, username: "operator", roles: ["admin"] } }, config),
    });
  } finally {
    await db.close();
  }
}
