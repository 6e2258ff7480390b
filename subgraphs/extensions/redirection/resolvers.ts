// Thin resolvers of redirection/v1: arguments in, domain functions out.
import { GraphQLScalarType, Kind, type ValueNode } from "graphql";
import type { Resolvers } from "../../../generated/graphql/extensions-resolvers.ts";
import { fail } from "../../../lib/errors.ts";
import { exportRedirects } from "./export.ts";
import { bulkGroups, createGroup, listGroups, updateGroup, type BulkGroupAction } from "./groups.ts";
import { importFile } from "./import.ts";
import { deleteLogs, listLogs } from "./logs.ts";
import { serveRedirect } from "./matcher.ts";
import { canManageRedirection, requireRedirection } from "./permissions.ts";
import { fixPlugin, listImporters, pluginData, pluginStatus, settingsEnvelope, uninstallPlugin, updateSettings } from "./plugin.ts";
import { bulkRedirects, createRedirects, listRedirects, updateRedirect, type BulkRedirectAction, type ListInput } from "./redirects.ts";

function literal(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.STRING: case Kind.ENUM: return node.value;
    case Kind.INT: return Number.parseInt(node.value, 10);
    case Kind.FLOAT: return Number.parseFloat(node.value);
    case Kind.BOOLEAN: return node.value;
    case Kind.NULL: return null;
    case Kind.LIST: return node.values.map(literal);
    case Kind.OBJECT: return Object.fromEntries(node.fields.map((f) => [f.name.value, literal(f.value)]));
    default: return null;
  }
}

const RedirectionJSON = new GraphQLScalarType({
  name: "RedirectionJSON",
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (node) => literal(node),
});

const asObject = (value: unknown): Record<string, unknown> => (value && typeof value === "object" && !Array.isArray(value) ? value as Record<string, unknown> : {});

const list = (input: { filterBy?: unknown; orderby?: string | null; direction?: string | null; perPage?: number | null; page?: number | null } | null | undefined): ListInput | null =>
  (input ? { ...input, filterBy: input.filterBy ? asObject(input.filterBy) : null } : null);

const BULK_REDIRECT = ["delete", "enable", "disable", "reset"];
const BULK_GROUP = ["delete", "enable", "disable"];

export const redirectionResolvers: Resolvers = {
  RedirectionJSON,
  Query: {
    redirects: (_, args, ctx) => listRedirects(ctx, list(args.list)),
    redirectGroups: (_, args, ctx) => listGroups(ctx, list(args.list)),
    redirectLogs: (_, args, ctx) => listLogs(ctx, args.kind, list(args.list), args.groupBy),
    redirectionSettings: (_, __, ctx) => settingsEnvelope(ctx),
    redirectionPluginStatus: (_, __, ctx) => pluginStatus(ctx),
    redirectionImporters: (_, __, ctx) => listImporters(ctx),
    redirectionExport: (_, args, ctx) => exportRedirects(ctx, args.module, args.format),
    redirectionViewerCan: (_, __, ctx) => ({ manage: canManageRedirection(ctx.identity) }),
  },
  Mutation: {
    createRedirect: (_, args, ctx) => createRedirects(ctx, asObject(args.input), list(args.list)),
    updateRedirect: (_, args, ctx) => updateRedirect(ctx, args.id, asObject(args.input)),
    bulkRedirects: (_, args, ctx) => {
      requireRedirection(ctx);
      if (!BULK_REDIRECT.includes(args.action)) fail("rest_invalid_param", { message: "Invalid parameter(s): bulk", data: { params: { bulk: "bulk is not one of delete, enable, disable, and reset." } } });
      return bulkRedirects(ctx, args.action as BulkRedirectAction, args.items, args.global, list(args.list));
    },
    createRedirectGroup: (_, args, ctx) => createGroup(ctx, args.input, list(args.list)),
    updateRedirectGroup: (_, args, ctx) => updateGroup(ctx, args.id, args.input),
    bulkRedirectGroups: (_, args, ctx) => {
      requireRedirection(ctx);
      if (!BULK_GROUP.includes(args.action)) fail("rest_invalid_param", { message: "Invalid parameter(s): bulk", data: { params: { bulk: "bulk is not one of delete, enable, and disable." } } });
      return bulkGroups(ctx, args.action as BulkGroupAction, args.items, args.global, list(args.list));
    },
    deleteRedirectLogs: (_, args, ctx) => deleteLogs(ctx, args.kind, args.items, args.global, args.groupBy, list(args.list)),
    updateRedirectionSettings: (_, args, ctx) => updateSettings(ctx, asObject(args.input)),
    fixRedirectionPlugin: (_, args, ctx) => fixPlugin(ctx, args.name, args.value),
    redirectionPluginData: (_, args, ctx) => pluginData(ctx, args.upgrade),
    uninstallRedirection: async (_, __, ctx) => {
      await uninstallPlugin(ctx);
      return { location: `${ctx.config.siteUrl}/wp-admin/plugins.php` };
    },
    importRedirects: (_, args, ctx) => importFile(ctx, args.groupId, args.file),
    importRedirectsFromPlugins: async (_, __, ctx) => {
      await listImporters(ctx);
      return { imported: 0 };
    },
    serveRedirect: (_, args, ctx) => {
      if (!ctx.identity.router) fail("forbidden", { message: "Only the router may serve redirects." });
      return serveRedirect(ctx, args.request);
    },
  },
};
