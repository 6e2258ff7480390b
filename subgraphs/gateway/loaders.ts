// Per-request DataLoaders: every read by id in one request becomes one statement.
import DataLoader from "dataloader";
import type { Database } from "../../lib/db.ts";
import { accountedEmailsByIds, type AccountedEmail } from "./accounted-emails.ts";

export interface GatewayLoaders {
  accountedEmailById: DataLoader<number, AccountedEmail | null>;
}

export function createLoaders(db: Database): GatewayLoaders {
  return { accountedEmailById: new DataLoader((ids) => accountedEmailsByIds(db, ids)) };
}
