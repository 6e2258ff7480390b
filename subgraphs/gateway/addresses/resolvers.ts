// EmailAddress: the federation entity keyed by the normalised address. Its fields (messages,
// licence record, restriction status) each go through a per-request DataLoader, so a list of
// addresses costs one statement per field, however long the list. Scope: see addresses.graphql.
import type { Resolvers } from "../../../generated/graphql/gateway-resolvers.ts";
import { domainError, fail } from "../../../lib/errors.ts";
import { domainOf, normaliseAddress } from "../../../lib/gateway/addresses.ts";
import { MAX_ADDRESS_LENGTH } from "../../../lib/gateway/licensing.ts";
import type { GatewayContext } from "../context.ts";
import { mailScope, requireAdministrator, requireMailAdmin, showsEnvelope } from "../mail/scope.ts";

/** Whether the caller may see this address's mail. */
async function inScope(ctx: GatewayContext, address: string): Promise<{ visible: boolean; envelope: boolean }> {
  const scope = await mailScope(ctx);
  const visible = scope.kind === "all" ? true
    : scope.kind === "domains" ? scope.domains.includes(domainOf(address))
    : scope.addresses.includes(address);
  return { visible, envelope: showsEnvelope(scope) };
}

async function mayReadRestrictions(ctx: GatewayContext, address: string): Promise<void> {
  const scope = await mailScope(ctx);
  requireMailAdmin(scope);
  if (scope.kind === "domains" && !scope.domains.includes(domainOf(address))) fail("gateway_forbidden");
}

/** An EmailAddress as its fields receive it: the key alone. */
export interface AddressRef { address: string }

export const addressResolvers = {
  EmailAddress: {
    __resolveReference: (reference) => ({ address: normaliseAddress(reference.address) }),
    address: ({ address }) => normaliseAddress(address),
    messages: async ({ address }, { first }, ctx) => {
      if (!Number.isInteger(first) || first < 1 || first > 100) throw domainError("BAD_USER_INPUT", { message: "`first` must be 1 to 100." });
      const normal = normaliseAddress(address);
      const { visible, envelope } = await inScope(ctx, normal);
      // An over-long address has no mail (it was refused at ingest): nothing to look up.
      if (!visible || normal.length > MAX_ADDRESS_LENGTH) return { totalItems: 0, items: [] };
      const found = await ctx.loaders.addresses.messages.load(`${first}\u0000${normal}`);
      return { totalItems: found.totalItems, items: found.items.map((row) => ({ row, envelope })) };
    },
    licence: async ({ address }, _args, ctx) => {
      requireAdministrator(await mailScope(ctx));
      return ctx.loaders.addresses.licence.load(normaliseAddress(address));
    },
    restriction: async ({ address }, _args, ctx) => {
      await mayReadRestrictions(ctx, normaliseAddress(address));
      return ctx.loaders.addresses.restriction.load(normaliseAddress(address));
    },
    restricted: async ({ address }, _args, ctx) => {
      await mayReadRestrictions(ctx, normaliseAddress(address));
      return (await ctx.loaders.addresses.restriction.load(normaliseAddress(address))) !== null;
    },
  },
} satisfies Resolvers;
