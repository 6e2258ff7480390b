// Email gateway subgraph: the email security gateway's management API (release 5.3): sign-in
// tokens and licensing records. Resolvers stay thin; the rules live in the modules beside them.
import type { Database } from "../../lib/db.ts";
import type { Config } from "../../lib/config.ts";
import type { Resolvers } from "../../generated/graphql/gateway-resolvers.ts";
import { loadTypeDefs, type SubgraphContextBase, type SubgraphDefinition } from "../../lib/subgraph.ts";
import { requireGatewayAdmin, requireRouter } from "./access.ts";
import { listAccountedEmails, type AccountedEmail, type AccountedEmailQuery } from "./accounted-emails.ts";
import { createLoaders, type GatewayLoaders } from "./loaders.ts";
import { DateTimeScalar } from "./scalars.ts";
import { authenticateToken, login } from "./sessions.ts";
import { ensureAdministrator } from "./users.ts";

export interface GatewayContext extends SubgraphContextBase {
  db: Database;
  config: Config;
  loaders: GatewayLoaders;
}

type Resolver<Args, Result, Parent = unknown> = (parent: Parent, args: Args, context: GatewayContext) => Result;

const authenticateGatewayToken: Resolver<{ token: string }, ReturnType<typeof authenticateToken>> = (_p, { token }, ctx) => {
  requireRouter(ctx.identity);
  return authenticateToken(ctx.db, ctx.config.secretKey, token);
};

const accountedEmails: Resolver<AccountedEmailQuery, ReturnType<typeof listAccountedEmails>> = (_p, args, ctx) => {
  requireGatewayAdmin(ctx.identity);
  return listAccountedEmails(ctx.db, args);
};

const accountedEmail: Resolver<{ id: number }, Promise<AccountedEmail | null>> = (_p, { id }, ctx) => {
  requireGatewayAdmin(ctx.identity);
  return ctx.loaders.accountedEmailById.load(id);
};

const gatewayLogin: Resolver<{ username: string; password: string }, ReturnType<typeof login>> = (_p, { username, password }, ctx) =>
  login(ctx.db, ctx.config.secretKey, username, password);

const resolvers: Resolvers = {
  DateTime: DateTimeScalar,
  Query: { authenticateGatewayToken, accountedEmails, accountedEmail },
  Mutation: { gatewayLogin },
  AccountedEmail: {
    __resolveReference: (reference: { id: number }, ctx: GatewayContext) => {
      requireGatewayAdmin(ctx.identity);
      return ctx.loaders.accountedEmailById.load(reference.id);
    },
    // The column is `address`; the API property is `email`, the name the seed filters by.
    email: (row: AccountedEmail) => row.address,
  },
};

export const gatewaySubgraph: SubgraphDefinition<GatewayContext> = {
  name: "gateway",
  typeDefs: loadTypeDefs(new URL("./", import.meta.url)),
  resolvers: resolvers as SubgraphDefinition<GatewayContext>["resolvers"],
  context: (db, identity, config) => ({ identity, db, config, loaders: createLoaders(db) }),
  install: (db, config) => ensureAdministrator(db, config),
};
