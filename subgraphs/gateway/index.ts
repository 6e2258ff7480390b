// Email gateway subgraph: the email security gateway's management API (release 5.3), one folder
// per area, named as the /api/v2 layer's (router/rest/gateway/resources/<area>.ts): auth/ (sign-in
// and tokens) and licensing/ (accounted email). Resolvers stay thin; the rules live beside them.
import type { Resolvers } from "../../generated/graphql/gateway-resolvers.ts";
import { loadTypeDefs, type SubgraphDefinition } from "../../lib/subgraph.ts";
import { addressResolvers } from "./addresses/resolvers.ts";
import { authResolvers } from "./auth/resolvers.ts";
import { applianceAreas } from "./appliance/areas.ts";
import { ensureLocalNode } from "./appliance/node.ts";
import { ensureAdministrator } from "./auth/users.ts";
import { createGatewayContext, type GatewayContext } from "./context.ts";
import { licensingResolvers } from "./licensing/resolvers.ts";
import { mailResolvers } from "./mail/resolvers.ts";
import { restrictedSenderResolvers } from "./restricted-senders/resolvers.ts";
import { DateTimeScalar } from "./scalars.ts";

export type { GatewayContext };

const resolvers: Resolvers = {
  DateTime: DateTimeScalar,
  Query: { ...authResolvers.Query, ...licensingResolvers.Query, ...mailResolvers.Query, ...restrictedSenderResolvers.Query, ...applianceAreas.Query },
  Mutation: { ...authResolvers.Mutation, ...mailResolvers.Mutation, ...restrictedSenderResolvers.Mutation, ...applianceAreas.Mutation },
  ...applianceAreas.types,
  AccountedEmail: licensingResolvers.AccountedEmail,
  EmailAddress: addressResolvers.EmailAddress,
  Message: mailResolvers.Message,
  MessageAttachment: mailResolvers.MessageAttachment,
  RestrictedSender: restrictedSenderResolvers.RestrictedSender,
};

export const gatewaySubgraph: SubgraphDefinition<GatewayContext> = {
  name: "gateway",
  typeDefs: loadTypeDefs(new URL("./", import.meta.url)),
  resolvers: resolvers as SubgraphDefinition<GatewayContext>["resolvers"],
  context: createGatewayContext,
  install: async (db, config) => { await ensureAdministrator({ db, config }); await ensureLocalNode({ db }); },
};
