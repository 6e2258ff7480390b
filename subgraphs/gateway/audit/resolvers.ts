// Audit log resolvers: administrators only.
import { GraphQLScalarType } from "graphql";
import type { Resolvers } from "../../../generated/graphql/gateway-resolvers.ts";
import { requireGatewayAdmin } from "../access.ts";
import { auditEntry, listAuditEntries } from "./audit.ts";

/** Configuration values as they are: JSON in, JSON out. */
export const JSONValueScalar = new GraphQLScalarType({
  name: "JSONValue",
  serialize: (value) => value,
  parseValue: (value) => value,
});

export const auditResolvers = {
  JSONValue: JSONValueScalar,
  Query: {
    auditEntries: (_parent, args, ctx) => {
      requireGatewayAdmin(ctx.identity);
      return listAuditEntries(ctx, args);
    },
    auditEntry: (_parent, { id }, ctx) => {
      requireGatewayAdmin(ctx.identity);
      return auditEntry(ctx, id);
    },
  },
} satisfies Resolvers;
