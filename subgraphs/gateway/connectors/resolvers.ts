// Connector resolvers: administrators only; the rules are in connectors.ts.
import type { GoogleConnectorConfig, LdapConfig, Microsoft365Config, Resolvers } from "../../../generated/graphql/gateway-resolvers.ts";
import type { Connector } from "../../../lib/gateway/appliance.ts";
import { requireGatewayAdmin } from "../access.ts";
import type { GatewayContext } from "../context.ts";
import { connectorConfig, updateConnectorConfig, type ConnectorView } from "./connectors.ts";
import { createGroupImport, deleteGroupImport, listGroupImports, runGroupImport } from "./group-imports.ts";
import type { GatewayGroupImport } from "../../../generated/prisma/client.ts";
import type { GroupImportConnector } from "../../../generated/graphql/gateway-resolvers.ts";

const groupImport = (row: GatewayGroupImport) => ({ ...row, connector: row.connector.replace("-", "_") as GroupImportConnector });

/** A connector's view as its GraphQL type: saved values, has<Secret> flags, the apply state. */
function shape(view: ConnectorView) {
  const has = Object.fromEntries(Object.entries(view.secretsSet).map(([k, v]) => [`has${k[0].toUpperCase()}${k.slice(1)}`, v]));
  return { ...view.values, ...has, pendingChanges: view.pendingChanges, lastAppliedAt: view.lastAppliedAt, applied: view.applied };
}
const m365 = (view: ConnectorView) => shape(view) as unknown as Microsoft365Config;
const google = (view: ConnectorView) => {
  const shaped = shape(view) as unknown as GoogleConnectorConfig;
  return { ...shaped, googleCustomerId: shaped.organizationId };
};
const ldap = (view: ConnectorView) => shape(view) as unknown as LdapConfig;

const read = (ctx: GatewayContext, connector: Connector) => {
  requireGatewayAdmin(ctx.identity);
  return connectorConfig(ctx, connector);
};
const write = (ctx: GatewayContext, connector: Connector, input: object, replace: boolean) => {
  requireGatewayAdmin(ctx.identity);
  return updateConnectorConfig(ctx, connector, input as Record<string, unknown>, replace);
};

export const connectorResolvers = {
  Query: {
    microsoft365Config: async (_p, _a, ctx) => m365(await read(ctx, "microsoft-365")),
    googleConnectorConfig: async (_p, _a, ctx) => google(await read(ctx, "google")),
    ldapConfig: async (_p, _a, ctx) => ldap(await read(ctx, "ldap")),
    groupImports: async (_p, _a, ctx) => { requireGatewayAdmin(ctx.identity); return (await listGroupImports(ctx)).map(groupImport); },
  },
  Mutation: {
    updateMicrosoft365Config: async (_p, { input, replace }, ctx) => m365(await write(ctx, "microsoft-365", input, replace)),
    updateGoogleConnectorConfig: async (_p, { input, replace }, ctx) => google(await write(ctx, "google", input, replace)),
    updateLdapConfig: async (_p, { input, replace }, ctx) => ldap(await write(ctx, "ldap", input, replace)),
    createGroupImport: async (_p, { input }, ctx) => {
      requireGatewayAdmin(ctx.identity);
      return groupImport(await createGroupImport(ctx, { ...input, connector: input.connector.replace("_", "-") }));
    },
    deleteGroupImport: (_p, { id }, ctx) => { requireGatewayAdmin(ctx.identity); return deleteGroupImport(ctx, id); },
    runGroupImport: (_p, { id, groupEmail, members }, ctx) => { requireGatewayAdmin(ctx.identity); return runGroupImport(ctx, id, { groupEmail, members }); },
  },
} satisfies Resolvers;
