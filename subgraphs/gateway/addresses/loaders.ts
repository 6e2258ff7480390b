// Per-request DataLoaders behind EmailAddress's fields: however many addresses one query names
// (a page of form submissions, a list of site users), each field costs a constant number of SQL
// statements — the newest messages per address in one windowed query, their count in one
// grouped query, the messages themselves in one, licence records and restrictions in one each.
import DataLoader from "dataloader";
import type { AccountedEmail, GatewayMessage, GatewayRestrictedSender } from "../../../generated/prisma/client.ts";
import type { Identity } from "../../../lib/identity.ts";
import type { GatewayContext } from "../context.ts";
import { purgeExpiredWorkerMail } from "../mail/retention.ts";
import { restrictionsBySenders } from "../restricted-senders/restricted-senders.ts";

export interface AddressMessages { totalItems: number; items: GatewayMessage[] }

export interface AddressLoaders {
  /** Key: `${first}\u0000${address}`; addresses already normalised and in the caller's scope. */
  messages: DataLoader<string, AddressMessages>;
  licence: DataLoader<string, AccountedEmail | null>;
  restriction: DataLoader<string, GatewayRestrictedSender | null>;
}

export function createAddressLoaders(ctx: Pick<GatewayContext, "db"> & { identity: Identity }): AddressLoaders {
  const { prisma } = ctx.db;
  return {
    messages: new DataLoader(async (keys) => {
      const first = Number(keys[0].split("\u0000")[0]);
      // One `first` per request in practice; keys with another value are answered in their own batch below.
      const sameFirst = keys.filter((k) => Number(k.split("\u0000")[0]) === first);
      const addresses = [...new Set(sameFirst.map((k) => k.split("\u0000")[1]))];
      // Mail past worker retention is deleted before it could be served (once per batch).
      await purgeExpiredWorkerMail(ctx);
      const [ranked, counts] = await Promise.all([
        prisma.$queryRawUnsafe<{ address: string; messageId: string }[]>(`
          SELECT address, "messageId" FROM (
            SELECT address, "messageId", ROW_NUMBER() OVER (PARTITION BY address ORDER BY "receivedOn" DESC, "messageId" DESC) AS rn
            FROM (SELECT DISTINCT address, "messageId", "receivedOn" FROM "GatewayMessageAddress" WHERE address = ANY($1::text[])) AS d
          ) AS r WHERE rn <= $2`, addresses, first),
        prisma.$queryRawUnsafe<{ address: string; n: bigint | number }[]>(`
          SELECT address, COUNT(DISTINCT "messageId") AS n FROM "GatewayMessageAddress" WHERE address = ANY($1::text[]) GROUP BY address`, addresses),
      ]);
      const rows = await prisma.gatewayMessage.findMany({ where: { id: { in: [...new Set(ranked.map((r) => r.messageId))] } } });
      const byId = new Map(rows.map((r) => [r.id, r]));
      const counted = new Map(counts.map((c) => [c.address, Number(c.n)]));
      const result = new Map<string, AddressMessages>();
      for (const address of addresses) {
        const items = ranked.filter((r) => r.address === address).map((r) => byId.get(r.messageId)).filter((m): m is GatewayMessage => !!m)
          .sort((a, b) => b.receivedOn.getTime() - a.receivedOn.getTime() || (a.id < b.id ? 1 : -1));
        result.set(address, { totalItems: counted.get(address) ?? 0, items });
      }
      const loader = createAddressLoaders(ctx).messages;
      return Promise.all(keys.map((k) => result.get(k.split("\u0000")[1]) && Number(k.split("\u0000")[0]) === first
        ? result.get(k.split("\u0000")[1])!
        : loader.load(k)));
    }),
    licence: new DataLoader(async (addresses) => {
      const rows = await prisma.accountedEmail.findMany({ where: { address: { in: [...addresses] } } });
      const byAddress = new Map(rows.map((r) => [r.address, r]));
      return addresses.map((a) => byAddress.get(a) ?? null);
    }),
    restriction: new DataLoader((senders) => restrictionsBySenders(ctx, senders)),
  };
}
