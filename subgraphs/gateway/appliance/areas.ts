// The appliance side's areas (appliance, audit, events, connectors, users, cluster, domains,
// versions), merged once here so the subgraph's resolver list takes them in one line each.
import type { Resolvers } from "../../../generated/graphql/gateway-resolvers.ts";
import { applianceResolvers } from "./resolvers.ts";
import { auditResolvers } from "../audit/resolvers.ts";
import { eventResolvers } from "../events/resolvers.ts";
import { connectorResolvers } from "../connectors/resolvers.ts";
import { userResolvers } from "../users/resolvers.ts";
import { clusterResolvers } from "../cluster/resolvers.ts";
import { domainResolvers } from "../domains/resolvers.ts";
import { versionResolvers } from "../versions/resolvers.ts";

export const applianceAreas = {
  Query: { ...applianceResolvers.Query, ...auditResolvers.Query, ...eventResolvers.Query, ...connectorResolvers.Query, ...userResolvers.Query, ...clusterResolvers.Query, ...domainResolvers.Query, ...versionResolvers.Query },
  Mutation: { ...applianceResolvers.Mutation, ...connectorResolvers.Mutation, ...userResolvers.Mutation, ...clusterResolvers.Mutation, ...domainResolvers.Mutation },
  types: { JSONValue: auditResolvers.JSONValue },
} satisfies { Query: Resolvers["Query"]; Mutation: Resolvers["Mutation"]; types: Resolvers };
