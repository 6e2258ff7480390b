// core/v2/settings: the site's settings (recording 135), readable and writable by those who may
// manage options, as the graph answers. Every argument also accepts null, which resets the
// setting to its default — WordPress's settings controller sanitizes null through untouched for that.
import {
  ReadSiteSettingsDocument, SitePermissionsDocument, UpdateSiteSettingsDocument, type SiteSettingsFieldsFragment, type SiteSettingsInput,
} from "../../../../../generated/graphql/operations.ts";
import { route, type ArgCheckRequest, type ArgSchema, type RestRequest, type SiteRoute } from "../../route.ts";
import { sanitizeValue, validateValue } from "../../validation.ts";
import { op, opEndpoint } from "../../kit/crud.ts";
import { allowedBy } from "../../kit/operation.ts";
import { itemSchema, present, writeArgs, type Field, type Resource } from "../../kit/resource.ts";
import { toEnum, wpDiscussion } from "./wp-values.ts";

type Settings = SiteSettingsFieldsFragment;
type Graph = keyof Settings & keyof SiteSettingsInput;

/** WP_REST_Settings_Controller::sanitize_callback: null passes (it means "reset"), anything else is checked by its schema. */
const nullable = (schema: ArgSchema): Partial<ArgSchema> => ({
  skipValidation: true,
  sanitize: (value: unknown, _request: ArgCheckRequest, name: string) => {
    if (value === null) return null;
    const valid = validateValue(value, schema, name);
    return valid === true ? sanitizeValue(value, schema, name) : valid;
  },
});

/** REST name → GraphQL field, in WordPress's order (which is also the response's key order). */
const SETTINGS: [rest: string, graph: Graph, schema: ArgSchema][] = [
  ["title", "title", { description: "Site title.", type: "string" }],
  ["description", "description", { description: "Site tagline.", type: "string" }],
  ["url", "url", { description: "Site URL.", type: "string", format: "uri" }],
  ["email", "email", { description: "This address is used for admin purposes, like new user notification.", type: "string", format: "email" }],
  ["timezone", "timezone", { description: "A city in the same timezone as you.", type: "string" }],
  ["date_format", "dateFormat", { description: "A date format for all date strings.", type: "string" }],
  ["time_format", "timeFormat", { description: "A time format for all time strings.", type: "string" }],
  ["start_of_week", "startOfWeek", { description: "A day number of the week that the week should start on.", type: "integer" }],
  ["language", "language", { description: "WordPress locale code.", type: "string" }],
  ["use_smilies", "useSmilies", { description: "Convert emoticons like :-) and :-P to graphics on display.", type: "boolean" }],
  ["default_category", "defaultCategory", { description: "Default post category.", type: "integer" }],
  ["default_post_format", "defaultPostFormat", { description: "Default post format.", type: "string" }],
  ["posts_per_page", "postsPerPage", { description: "Blog pages show at most.", type: "integer" }],
  ["show_on_front", "showOnFront", { description: "What to show on the front page", type: "string" }],
  ["page_on_front", "pageOnFront", { description: "The ID of the page that should be displayed on the front page", type: "integer" }],
  ["page_for_posts", "pageForPosts", { description: "The ID of the page that should display the latest posts", type: "integer" }],
  ["default_ping_status", "defaultPingStatus", { description: "Allow link notifications from other blogs (pingbacks and trackbacks) on new articles.", type: "string", enum: ["open", "closed"] }],
  ["default_comment_status", "defaultCommentStatus", { description: "Allow people to submit comments on new posts.", type: "string", enum: ["open", "closed"] }],
  ["site_logo", "siteLogo", { description: "Site logo.", type: "integer" }],
  ["site_icon", "siteIcon", { description: "Site icon.", type: "integer" }],
];

/** Settings the graph answers as enum values (DiscussionStatus): REST reads and writes WordPress's strings. */
const DISCUSSION: ReadonlySet<Graph> = new Set(["defaultPingStatus", "defaultCommentStatus"]);

export const SITE_SETTINGS: Resource<Settings> = {
  title: "settings",
  fields: Object.fromEntries(SETTINGS.map(([rest, graph, schema]): [string, Field<Settings>] =>
    [rest, { schema, read: (s) => (DISCUSSION.has(graph) ? wpDiscussion(s[graph] as string | null) : s[graph]) ?? null, input: graph, arg: nullable(schema) }])),
};

/** The settings sent, null included (null resets a setting, so it is not "absent" here). */
const settingsInput = (r: RestRequest): SiteSettingsInput =>
  Object.fromEntries(SETTINGS.filter(([rest]) => r.sent.has(rest))
    .map(([rest, graph]) => [graph, DISCUSSION.has(graph) ? toEnum(r.params[rest] ?? null) : r.params[rest] ?? null]));

const canManage = allowedBy(SitePermissionsDocument, (d) => d.viewerCan?.manageOptions ?? false);
const body = (settings: Settings, r: RestRequest) => present(SITE_SETTINGS, settings, { context: "edit", urls: r.urls });

export const settingsRoutes: SiteRoute[] = [
  route("core/v2", "/settings", [
    opEndpoint({ methods: ["GET"], args: {}, allowed: canManage }, op(ReadSiteSettingsDocument, () => ({}), (d) => d.siteSettings!),
      (settings, r) => ({ body: body(settings, r) })),
    opEndpoint({ methods: ["POST", "PUT", "PATCH"], args: writeArgs(SITE_SETTINGS, "update"), allowed: canManage },
      op(UpdateSiteSettingsDocument, (r) => ({ input: settingsInput(r) }), (d) => d.updateSiteSettings!), (settings, r) => ({ body: body(settings, r) })),
  ], itemSchema(SITE_SETTINGS)),
];
