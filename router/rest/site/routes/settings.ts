// core/v2/settings: the site's settings (recording 135), readable and writable by administrators
// (manage_options). Every argument also accepts null, which resets the setting to its default —
// WordPress's settings controller sanitizes null through untouched for that.
import { can } from "../../../../lib/capabilities.ts";
import { gql } from "../../table.ts";
import { route, type ArgCheckRequest, type ArgSchema, type SiteRoute } from "../route.ts";
import { sanitizeValue, validateValue } from "../validation.ts";

const NS = "core/v2";

/** REST name → GraphQL field, in WordPress's order (which is also the response's key order). */
const SETTINGS: [rest: string, graph: string, schema: ArgSchema][] = [
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

/** WP_REST_Settings_Controller::sanitize_callback: null passes (it means "reset"), anything else is checked by its schema. */
function nullable(schema: ArgSchema): ArgSchema {
  return {
    ...schema,
    skipValidation: true,
    sanitize: (value: unknown, _request: ArgCheckRequest, name: string) => {
      if (value === null) return null;
      const valid = validateValue(value, schema, name);
      if (valid !== true) return valid;
      return sanitizeValue(value, schema, name);
    },
  };
}

const FIELDS = SETTINGS.map(([, graph]) => graph).join(" ");
const READ = gql`query ReadSiteSettings { siteSettings { ${FIELDS} } }`;
const UPDATE = gql`mutation UpdateSiteSettings($input: SiteSettingsInput!) { updateSiteSettings(input: $input) { ${FIELDS} } }`;

const body = (settings: Record<string, unknown>) => Object.fromEntries(SETTINGS.map(([rest, graph]) => [rest, settings[graph] ?? null]));
const mayManage = (roles: string[] | undefined) => can(roles, "manage_options");

export const settingsRoutes: SiteRoute[] = [
  route(NS, "/settings", [
    {
      methods: ["GET"], args: {}, operation: READ, allowed: (i) => mayManage(i.site?.roles),
      respond: (data) => ({ body: body(data.siteSettings) }),
    },
    {
      methods: ["POST", "PUT", "PATCH"], operation: UPDATE, allowed: (i) => mayManage(i.site?.roles),
      args: Object.fromEntries(SETTINGS.map(([rest, , schema]) => [rest, nullable(schema)])),
      variables: (r) => ({
        input: Object.fromEntries(SETTINGS.filter(([rest]) => r.sent.has(rest)).map(([rest, graph]) => [graph, r.params[rest] ?? null])),
      }),
      respond: (data) => ({ body: body(data.updateSiteSettings) }),
    },
  ]),
];
