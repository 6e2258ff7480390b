// redirection/v1: the Redirection plugin's REST routes (api/api-*.php), each one typed operation of
// redirection.graphql. The list arguments are the plugin's get_filter_args (filterBy checked
// against each route's keys, orderby per route, per_page 5..200, page from 0); bodies are the
// plugin's shapes ({items, total}, {item}, the settings envelope, {data, total}).
import {
  BulkRedirectGroupsDocument, BulkRedirectsDocument, CreateRedirectDocument, CreateRedirectGroupDocument, DeleteRedirectLogsDocument,
  ExportRedirectsDocument, FixRedirectionPluginDocument, ImportRedirectsDocument, ImportRedirectsFromPluginsDocument, ListRedirectGroupsDocument,
  ListRedirectLogsDocument, ListRedirectsDocument, ReadRedirectionSettingsDocument, RedirectionImportersDocument, RedirectionPermissionsDocument,
  RedirectionPluginDataDocument, RedirectionPluginStatusDocument, RedirectPageSearchDocument, RedirectPostSearchDocument, UpdateRedirectDocument, UpdateRedirectGroupDocument,
  UpdateRedirectionSettingsDocument, UninstallRedirectionDocument,
  type RedirectGroupFieldsFragment, type RedirectLogPageFieldsFragment, type RedirectRuleFieldsFragment, type RedirectionListInput,
} from "../../../../../generated/graphql/operations.ts";
import { wpError } from "../../errors.ts";
import { route, type ArgSchema, type LocalEndpoint, type RestRequest, type RestResult, type SiteRoute } from "../../route.ts";
import type { SiteRest } from "../../dispatch.ts";
import type { RouterContext } from "../../../../graph.ts";
import { op, opEndpoint, type EndpointOptions, type Op } from "../../kit/crud.ts";
import { allowedBy } from "../../kit/operation.ts";
import type { Args } from "../../kit/args.ts";
import {
  GROUP_FILTERS, GROUP_ORDERBY, LOG_FILTERS, LOG_ORDERBY, NOT_FOUND_FILTERS, REDIRECT_FILTERS, REDIRECT_ORDERBY,
} from "../../../../../subgraphs/extensions/redirection/values.ts";

const NS = "redirection/v1";
const EDITABLE = ["POST", "PUT", "PATCH"] as const;

/** Every route needs the plugin's capability (manage_options): the extensions subgraph answers. */
export const canManageRedirection = allowedBy(RedirectionPermissionsDocument, (d) => d.redirectionViewerCan.manage);

/** get_filter_args: filterBy (the route's keys only), orderby, direction, per_page, page. */
function listArgs(filters: string[], orderby: string[]): Args {
  return {
    filterBy: {
      description: "Field to filter by", type: "object",
      validate: (value) => {
        if (!value || typeof value !== "object" || Array.isArray(value)) return { code: "rest_invalid_param", message: "Filter is not an array" };
        const bad = Object.keys(value).find((k) => !filters.includes(k));
        return bad === undefined ? undefined : { code: "rest_invalid_param", message: `Filter type is not supported: ${bad}` };
      },
    },
    orderby: { description: "Field to order results by", type: "string", enum: orderby },
    direction: { description: "Direction of ordered results", type: "string", default: "desc", enum: ["asc", "desc"] },
    per_page: { description: "Number of results per page", type: "integer", default: 25, minimum: 5, maximum: 200 },
    page: { description: "Page offset", type: "integer", minimum: 0, default: 0 },
  };
}

/** The bulk routes' arguments: the list's, `items`, and (on /bulk/redirect only) `global`; every route reads `global` when sent. */
const bulkArgs = (list: Args, withGlobal = false): Args => ({
  ...list,
  ...(withGlobal ? { global: { description: "Apply bulk action globally, as per filters", type: "boolean" } } : {}),
  items: {
    description: withGlobal ? "Array of IDs to perform action on" : "Comma separated list of item IDs to perform action on",
    type: "array", items: { description: "Item ID", type: ["string", "number"] },
  },
});

const listOf = (r: RestRequest): RedirectionListInput => ({
  filterBy: r.params.filterBy ?? null,
  orderby: typeof r.params.orderby === "string" ? r.params.orderby : null,
  direction: typeof r.params.direction === "string" ? r.params.direction : "desc",
  perPage: typeof r.params.per_page === "number" ? r.params.per_page : 25,
  page: typeof r.params.page === "number" ? r.params.page : 0,
});

const itemsOf = (r: RestRequest): string[] | null => (Array.isArray(r.params.items) ? r.params.items.map(String) : null);
/** `global` as PHP reads it (any truthy value). */
const globalOf = (r: RestRequest): boolean => {
  const g = r.params.global;
  return g === true || g === 1 || (typeof g === "string" && g !== "" && g !== "0" && g !== "false");
};

/** A JSON body's members as the plugin reads them ($request->get_params() minus the route's own). */
function bodyOf(r: RestRequest, drop: string[] = []): Record<string, unknown> {
  const own = new Set(["filterBy", "orderby", "direction", "per_page", "page", "id", "_method", ...drop]);
  return Object.fromEntries(Object.entries(r.params).filter(([k]) => !own.has(k)));
}

export const snakeRule = (rule: RedirectRuleFieldsFragment) => ({
  id: rule.id, url: rule.url, match_url: rule.matchUrl, match_data: rule.matchData, action_code: rule.actionCode, action_type: rule.actionType,
  action_data: rule.actionData, match_type: rule.matchType, title: rule.title, hits: rule.hits, regex: rule.regex, group_id: rule.groupId,
  position: rule.position, last_access: rule.lastAccess, enabled: rule.enabled,
});

/** A group's to_json; lists add `default: true` to the default group only (the update answer never has it). */
const snakeGroup = (g: RedirectGroupFieldsFragment, inList = true) => ({
  id: g.id, name: g.name, redirects: g.redirects, module_id: g.moduleId, moduleName: g.moduleName, enabled: g.enabled,
  ...(inList && g.default ? { default: true } : {}),
});

function logBody(page: RedirectLogPageFieldsFragment, kind: "LOG" | "NOT_FOUND"): unknown {
  if (page.groups) return { items: page.groups.map((g) => ({ count: g.count, url: g.value, id: g.value })), total: page.total };
  return {
    items: page.items.map((e) => ({
      id: e.id, created: e.created, created_time: e.createdTime, url: e.url, agent: e.agent, referrer: e.referrer, domain: e.domain, ip: e.ip,
      http_code: e.httpCode, request_method: e.requestMethod, request_data: e.requestData,
      ...(kind === "LOG" ? { sent_to: e.sentTo, redirection_id: e.redirectionId, redirect_by_slug: e.redirectBySlug, redirect_by: e.redirectBy } : {}),
    })),
    total: page.total,
  };
}

const endpoint = <Out>(e: Omit<EndpointOptions, "allowed">, operation: Op<Out>, respond: (out: Out, r: RestRequest) => unknown | RestResult) =>
  opEndpoint({ ...e, allowed: canManageRedirection }, operation, async (out, r): Promise<RestResult> => {
    const body = await respond(out, r);
    return body && typeof body === "object" && "status" in body && "body" in body ? body as RestResult : { status: 200, body };
  });

const idArg: ArgSchema = { description: "Item ID", type: "integer" };
const redirectList = listArgs(REDIRECT_FILTERS, REDIRECT_ORDERBY);
const groupList = listArgs(GROUP_FILTERS, GROUP_ORDERBY);
const logList = listArgs(LOG_FILTERS, LOG_ORDERBY);
const notFoundList = listArgs(NOT_FOUND_FILTERS, LOG_ORDERBY);
const groupArgs: Args = {
  moduleId: { description: "Module ID", type: "integer", minimum: 0, maximum: 3, required: true },
  name: { description: "Group name", type: "string", required: true },
  status: { description: "Status of the group" },
};
const groupInput = (r: RestRequest) => ({
  name: String(r.params.name ?? ""), moduleId: Number(r.params.moduleId),
  ...(typeof r.params.status === "string" ? { status: r.params.status } : {}),
});

const rulesBody = (page: { total: number; items: RedirectRuleFieldsFragment[] }) => ({ items: page.items.map(snakeRule), total: page.total });
const groupsBody = (page: { total: number; items: RedirectGroupFieldsFragment[] }) => ({ items: page.items.map((g) => snakeGroup(g)), total: page.total });

/** /redirect/post: the title when the text is found in it past its start, else the slug (the plugin's quirk). */
function postMatches(text: string, nodes: { title: { raw: string | null }; slug: string; link: string }[]) {
  return nodes.map((n) => {
    const title = n.title.raw ?? "";
    // strpos: case-sensitive (the SQL LIKE that found the row is not).
    const at = title.indexOf(text);
    return { title: at > 0 ? title : n.slug, value: n.link };
  });
}

const logRoutes = (path: string, kind: "LOG" | "NOT_FOUND", list: Args): SiteRoute[] => [
  route(NS, `/${path}`, [
    endpoint({ methods: ["GET"], args: list },
      op(ListRedirectLogsDocument, (r) => ({ kind, list: listOf(r), groupBy: typeof r.params.groupBy === "string" ? r.params.groupBy : null }), (d) => d.redirectLogs),
      (page) => logBody(page, kind)),
  ]),
  route(NS, `/bulk/${path}/(?P<bulk>delete)`, [
    endpoint({ methods: [...EDITABLE], args: bulkArgs(list) },
      op(DeleteRedirectLogsDocument, (r) => ({
        kind, items: itemsOf(r), global: globalOf(r), groupBy: typeof r.params.groupBy === "string" ? r.params.groupBy : null, list: listOf(r),
      }), (d) => d.deleteRedirectLogs),
      (page) => logBody(page, kind)),
  ]),
];

export const redirectionRoutes: SiteRoute[] = [
  route(NS, "/redirect", [
    endpoint({ methods: ["GET"], args: redirectList }, op(ListRedirectsDocument, (r) => ({ list: listOf(r) }), (d) => d.redirects), rulesBody),
    endpoint({ methods: [...EDITABLE], args: redirectList },
      op(CreateRedirectDocument, (r) => ({ input: bodyOf(r), list: listOf(r) }), (d) => d.createRedirect), rulesBody),
  ]),
  route(NS, "/redirect/(?P<id>[\\d]+)", [
    endpoint({ methods: [...EDITABLE], args: { id: idArg } },
      op(UpdateRedirectDocument, (r) => ({ id: Number(r.params.id), input: bodyOf(r) }), (d) => d.updateRedirect), (rule) => ({ item: snakeRule(rule) })),
  ]),
  route(NS, "/redirect/post", [
    // Posts and pages are two lists of the content subgraph: the REST layer asks both (a local
    // endpoint), after the same permission the other routes ask of the extensions subgraph.
    {
      methods: ["GET"], args: { text: { description: "Text to match", type: "string", required: true } }, allowed: canManageRedirection,
      handle: async (r: RestRequest, context: RouterContext, site: SiteRest): Promise<RestResult> => {
        if (!(await site.may(canManageRedirection, context))) return wpError("rest_forbidden", "Sorry, you are not allowed to do that.", r.identity.site ? 403 : 401);
        const search = String(r.params.text);
        const [posts, pages] = await Promise.all([
          site.query(RedirectPostSearchDocument, { search }, context), site.query(RedirectPageSearchDocument, { search }, context),
        ]);
        return { status: 200, body: postMatches(search, [...(posts?.posts?.nodes ?? []), ...(pages?.pages?.nodes ?? [])]) };
      },
    } satisfies LocalEndpoint,
  ]),
  route(NS, "/bulk/redirect/(?P<bulk>delete|enable|disable|reset)", [
    endpoint({ methods: [...EDITABLE], args: { bulk: { description: "Bulk action", type: "string", enum: ["delete", "enable", "disable", "reset"] }, ...bulkArgs(redirectList, true) } },
      op(BulkRedirectsDocument, (r) => ({ action: String(r.params.bulk), items: itemsOf(r), global: globalOf(r), list: listOf(r) }), (d) => d.bulkRedirects), rulesBody),
  ]),
  route(NS, "/group", [
    endpoint({ methods: ["GET"], args: groupList }, op(ListRedirectGroupsDocument, (r) => ({ list: listOf(r) }), (d) => d.redirectGroups), groupsBody),
    endpoint({ methods: [...EDITABLE], args: { ...groupList, ...groupArgs } },
      op(CreateRedirectGroupDocument, (r) => ({ input: groupInput(r), list: listOf(r) }), (d) => d.createRedirectGroup), groupsBody),
  ]),
  route(NS, "/group/(?P<id>[\\d]+)", [
    endpoint({ methods: [...EDITABLE], args: { id: idArg, ...groupArgs } },
      op(UpdateRedirectGroupDocument, (r) => ({ id: Number(r.params.id), input: groupInput(r) }), (d) => d.updateRedirectGroup), (g) => ({ item: snakeGroup(g, false) })),
  ]),
  route(NS, "/bulk/group/(?P<bulk>delete|enable|disable)", [
    endpoint({ methods: [...EDITABLE], args: { bulk: { description: "Bulk action", type: "string", enum: ["delete", "enable", "disable"] }, ...bulkArgs(groupList) } },
      op(BulkRedirectGroupsDocument, (r) => ({ action: String(r.params.bulk), items: itemsOf(r), global: globalOf(r), list: listOf(r) }), (d) => d.bulkRedirectGroups), groupsBody),
  ]),
  ...logRoutes("log", "LOG", logList),
  ...logRoutes("404", "NOT_FOUND", notFoundList),
  route(NS, "/setting", [
    endpoint({ methods: ["GET"], args: {} }, op(ReadRedirectionSettingsDocument, () => ({}), (d) => d.redirectionSettings), (s) => s),
    endpoint({ methods: [...EDITABLE], args: {} }, op(UpdateRedirectionSettingsDocument, (r) => ({ input: bodyOf(r) }), (d) => d.updateRedirectionSettings), (s) => s),
  ]),
  route(NS, "/plugin", [
    endpoint({ methods: ["GET"], args: {} }, op(RedirectionPluginStatusDocument, () => ({}), (d) => d.redirectionPluginStatus), (s) => s),
    endpoint({ methods: [...EDITABLE], args: { name: { description: "Name", type: "string" }, value: { description: "Value", type: "string" } } },
      op(FixRedirectionPluginDocument, (r) => ({ name: typeof r.params.name === "string" ? r.params.name : null, value: typeof r.params.value === "string" ? r.params.value : null }),
        (d) => d.fixRedirectionPlugin), (s) => s),
  ]),
  route(NS, "/plugin/delete", [
    endpoint({ methods: [...EDITABLE], args: {} }, op(UninstallRedirectionDocument, () => ({}), (d) => d.uninstallRedirection), (s) => s),
  ]),
  route(NS, "/plugin/test", [
    endpoint({ methods: ["GET", ...EDITABLE, "DELETE"], args: {} }, op(RedirectionPermissionsDocument, () => ({}), (d) => d.redirectionViewerCan.manage),
      (may, r) => (may ? { success: true } : wpError("rest_forbidden", "Sorry, you are not allowed to do that.", r.identity.site ? 403 : 401))),
  ]),
  route(NS, "/plugin/data", [
    endpoint({ methods: [...EDITABLE], args: { upgrade: { description: "Upgrade parameter", type: "string", enum: ["stop", "skip", "retry"] } } },
      op(RedirectionPluginDataDocument, (r) => ({ upgrade: typeof r.params.upgrade === "string" ? r.params.upgrade : null }), (d) => d.redirectionPluginData), (s) => s),
  ]),
  route(NS, "/plugin/finish", [
    endpoint({ methods: [...EDITABLE], args: {} }, op(RedirectionPluginDataDocument, () => ({ upgrade: null }), (d) => d.redirectionPluginData), () => ({ complete: true })),
  ]),
  route(NS, "/plugin/fix", [
    endpoint({ methods: [...EDITABLE], args: { reason: { description: "Reason", type: "string", required: true }, current: { description: "Current", type: "string", required: true } } },
      op(FixRedirectionPluginDocument, () => ({ name: null, value: null }), (d) => d.fixRedirectionPlugin), (s) => s),
  ]),
  route(NS, "/import/file/(?P<group_id>\\d+)", [
    endpoint({ methods: [...EDITABLE], args: { group_id: { description: "Group ID", type: "integer" } } },
      op(ImportRedirectsDocument, (r) => {
        const file = r.files?.file;
        return { groupId: Number(r.params.group_id), file: file ? { filename: file.filename, contentBase64: file.bytes.toString("base64") } : null };
      }, (d) => d.importRedirects), (out) => ({ imported: out.imported })),
  ]),
  route(NS, "/import/plugin", [
    endpoint({ methods: ["GET"], args: {} }, op(RedirectionImportersDocument, () => ({}), (d) => d.redirectionImporters), (s) => s),
    endpoint({ methods: [...EDITABLE], args: { plugin: { description: "Plugins to import from", type: "array", items: { type: "string" } } } },
      op(ImportRedirectsFromPluginsDocument, (r) => ({ plugins: Array.isArray(r.params.plugin) ? r.params.plugin.map(String) : null }), (d) => d.importRedirectsFromPlugins),
      (out) => ({ imported: out.imported })),
  ]),
  route(NS, "/export/(?P<module>1|2|3|all)/(?P<format>csv|apache|nginx|json)", [
    endpoint({ methods: ["GET"], args: {
      module: { description: "Module", type: "string", enum: ["1", "2", "3", "all"] },
      format: { description: "Format", type: "string", enum: ["csv", "apache", "nginx", "json"] },
    } }, op(ExportRedirectsDocument, (r) => ({ module: String(r.params.module), format: String(r.params.format) }), (d) => d.redirectionExport),
    (out) => ({ data: out.data, total: out.total })),
  ]),
];
