// EmailAddress: the federation entity keyed by the normalised address. Its fields (messages,
// licence record, restriction status) each go through a per-request DataLoader, so a list of
// addresses costs one statement per field, however long the list.
import type { Resolvers } from "../../../generated/graphql/gateway-resolvers.ts";
import { normaliseAddress } from "../../../lib/gateway/addresses.ts";

export const addressResolvers = {
  EmailAddress: {
    __resolveReference: (reference) => ({ address: normaliseAddress(reference.address) }),
  },
} satisfies Resolvers;
