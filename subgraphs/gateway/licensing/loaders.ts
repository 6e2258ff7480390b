// Per-request DataLoaders of the licensing area: every read by id in one request becomes one statement.
import DataLoader from "dataloader";
import type { GatewayContext } from "../context.ts";
import { accountedEmailsByIds, type AccountedEmail } from "./accounted-emails.ts";

export interface LicensingLoaders {
  accountedEmailById: DataLoader<number, AccountedEmail | null>;
}

export function createLicensingLoaders(ctx: Pick<GatewayContext, "db">): LicensingLoaders {
  return { accountedEmailById: new DataLoader((ids) => accountedEmailsByIds(ctx, ids)) };
}
