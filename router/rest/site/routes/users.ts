// core/v2/users: the list, one user, `me`, and user create/update/delete, as WordPress's users
// controller serves them (a post's `author` link and its `_embed` land here too). Users and
// users/{id} may be batched (WordPress 6.6+); `me` may not.
import { REST_POST_TYPES } from "../../../../lib/wordpress/post-values.ts";
import { collectionArgs, EXCLUDE_INCLUDE } from "./collection-args.ts";
import { can } from "../../../../lib/capabilities.ts";
import type { Identity } from "../../../../lib/identity.ts";
import { gql } from "../../table.ts";
import { wpError } from "../errors.ts";
import { route, type ArgSchema, type RestRequest, type RestResult, type SiteEndpoint, type SiteRoute } from "../route.ts";
import { contextArg, pageLinks } from "./posts.ts";

const NS = "core/v2";
const ID = "(?P<id>[\\d]+)";
type Body = Record<string, unknown>;

/** A user as the operations select it (private fields are null for callers who may not see them). */
interface GraphUser {
  id: number; name: string; url: string; description: string; link: string; slug: string;
  avatarUrls: { size24: string; size48: string; size96: string };
  username: string | null; email: string | null; roles: string[] | null; registeredDate: string | null;
  capabilities: string[] | null; extraCapabilities: string[] | null; firstName: string | null; lastName: string | null;
  nickname: string | null; locale: string | null; persistedPreferences: string | null;
  viewerCan: { edit: boolean; delete: boolean; promote: boolean };
}

const USER_ORDERBY = ["id", "include", "name", "registered_date", "slug", "include_slugs", "email", "url"];

const authCode = (identity: Identity) => (identity.site ? 403 : 401);

// ---- argument schemas ----

const LIST_ARGS: Record<string, ArgSchema> = {
  ...collectionArgs(),
  ...EXCLUDE_INCLUDE,
  offset: { description: "Offset the result set by a specific number of items.", type: "integer" },
  order: { default: "asc", description: "Order sort attribute ascending or descending.", enum: ["asc", "desc"], type: "string" },
  orderby: { default: "name", description: "Sort collection by user attribute.", enum: USER_ORDERBY, type: "string" },
  slug: { description: "Limit result set to users with one or more specific slugs.", type: "array", items: { type: "string" } },
  roles: { description: "Limit result set to users matching at least one specific role provided. Accepts csv list or single role.", type: "array", items: { type: "string" } },
  capabilities: { description: "Limit result set to users matching at least one specific capability provided. Accepts csv list or single capability.", type: "array", items: { type: "string" } },
  who: { description: "Limit result set to users who are considered authors.", type: "string", enum: ["authors"] },
  has_published_posts: {
    description: "Limit result set to users who have published posts.", type: ["boolean", "array"],
    items: { type: "string", enum: [...REST_POST_TYPES] },
  },
};

/** sanitize_user( $username, true ) must leave the name unchanged (WordPress's check_username). */
function checkUsername(value: unknown) {
  const name = String(value);
  const clean = name.replace(/<[^>]*>/g, "").normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/%[a-fA-F0-9]{2}/g, "")
    .replace(/&.+?;/g, "").replace(/[^a-z0-9 _.\-@]/gi, "").trim().replace(/\s+/g, " ");
  if (name === "" || clean !== name) return { code: "rest_user_invalid_username", message: "Username contains invalid characters.", data: { status: 400 } };
  return name;
}

function checkPassword(value: unknown) {
  const password = String(value);
  if (password === "") return { code: "rest_user_invalid_password", message: "Passwords cannot be empty.", data: { status: 400 } };
  if (password.includes("\\")) return { code: "rest_user_invalid_password", message: "Passwords cannot contain the \"\\\" character.", data: { status: 400 } };
  return password;
}

const textField = (description: string): ArgSchema => ({ description, type: "string" });

function writeArgs(creating: boolean): Record<string, ArgSchema> {
  return {
    username: { description: "Login name for the user.", type: "string", ...(creating ? { required: true } : {}), sanitize: checkUsername },
    name: textField("Display name for the user."),
    first_name: textField("First name for the user."),
    last_name: textField("Last name for the user."),
    email: { description: "The email address for the user.", type: "string", format: "email", ...(creating ? { required: true } : {}) },
    url: { description: "URL of the user.", type: "string", format: "uri" },
    description: textField("Description of the user."),
    locale: { description: "Locale for the user.", type: "string", enum: ["", "en_US"] },
    nickname: textField("The nickname for the user."),
    slug: textField("An alphanumeric identifier for the user."),
    roles: { description: "Roles assigned to the user.", type: "array", items: { type: "string" } },
    password: { description: "Password for the user (never included).", type: "string", ...(creating ? { required: true } : {}), sanitize: checkPassword },
    meta: {
      description: "Meta fields.", type: "object",
      properties: {
        persisted_preferences: {
          type: "object", description: "", default: [], context: ["edit"],
          properties: { _modified: { description: "The date and time the preferences were updated.", type: "string", format: "date-time", readonly: false } },
          additionalProperties: true,
        },
      },
    },
  };
}

/** check_reassign: a number, or an empty value / "false" meaning "delete their posts". */
function checkReassign(value: unknown) {
  if (typeof value === "number" || (typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value))) return Math.abs(Math.trunc(Number(value)));
  if (value === false || value === "" || value === "false" || value === 0 || value === null) return false;
  return { code: "rest_invalid_param", message: "Invalid user parameter(s).", data: { status: 400 } };
}

const DELETE_ARGS: Record<string, ArgSchema> = {
  force: { type: "boolean", default: false, description: "Required to be true, as users do not support trashing." },
  reassign: { type: "integer", description: "Reassign the deleted user's posts and links to this user ID.", required: true, skipValidation: true, sanitize: checkReassign },
};

const idArg: ArgSchema = { description: "Unique identifier for the user.", type: "integer" };

// ---- request → GraphQL ----

const FIELD_NAMES: [string, string][] = [
  ["username", "username"], ["name", "name"], ["first_name", "firstName"], ["last_name", "lastName"], ["email", "email"], ["url", "url"],
  ["description", "description"], ["locale", "locale"], ["nickname", "nickname"], ["slug", "slug"], ["roles", "roles"], ["password", "password"],
];

function userInput(r: RestRequest): Record<string, unknown> {
  const input: Record<string, unknown> = Object.fromEntries(
    FIELD_NAMES.filter(([rest]) => r.sent.has(rest) && r.params[rest] !== undefined && r.params[rest] !== null).map(([rest, graph]) => [graph, r.params[rest]]),
  );
  // persisted_preferences is the one user meta WordPress registers; it travels as JSON text in the graph.
  const preferences = r.sent.has("meta") ? r.params.meta?.persisted_preferences : undefined;
  if (preferences && typeof preferences === "object") input.persistedPreferences = JSON.stringify(preferences);
  return input;
}

function listVariables(r: RestRequest) {
  const p = r.params;
  const published = p.has_published_posts;
  return {
    where: {
      search: p.search, include: p.include, exclude: p.exclude, slug: p.slug, roles: p.roles, capabilities: p.capabilities,
      who: p.who === "authors" ? "AUTHORS" : null,
      hasPublishedPosts: published === true ? true : null,
      publishedPostTypes: Array.isArray(published) && published.length ? published : null,
    },
    page: p.page, perPage: p.per_page, offset: p.offset ?? null,
    order: String(p.order).toUpperCase(), orderBy: String(p.orderby).toUpperCase(), editing: p.context === "edit",
  };
}

// ---- GraphQL → response ----

export const USER_FIELDS = `id name url description link slug avatarUrls { size24 size48 size96 }
  username email roles registeredDate capabilities extraCapabilities firstName lastName nickname locale persistedPreferences viewerCan { edit delete promote }`;

const asObject = (keys: string[] | null | undefined) => Object.fromEntries((keys ?? []).map((k) => [k, true]));

/** A user in WordPress's key order, with only the fields of the context. */
export function userBody(u: GraphUser, context: string, r: RestRequest, withLinks = true): Body {
  const avatar_urls = { 24: u.avatarUrls.size24, 48: u.avatarUrls.size48, 96: u.avatarUrls.size96 };
  let body: Body;
  if (context === "edit") {
    body = {
      id: u.id, username: u.username, name: u.name, first_name: u.firstName ?? "", last_name: u.lastName ?? "", email: u.email,
      url: u.url, description: u.description, link: u.link, locale: u.locale ?? "en_US", nickname: u.nickname ?? u.username,
      slug: u.slug, roles: u.roles ?? [], registered_date: u.registeredDate,
      capabilities: asObject(u.capabilities), extra_capabilities: asObject(u.extraCapabilities), avatar_urls,
      // persisted_preferences is the only user meta WordPress registers; it is shown in edit context only.
      meta: { persisted_preferences: u.persistedPreferences ? JSON.parse(u.persistedPreferences) as unknown : [] },
    };
  } else {
    body = { id: u.id, name: u.name, url: u.url, description: u.description, link: u.link, slug: u.slug, avatar_urls };
    if (context !== "embed") body.meta = [];
  }
  if (withLinks) {
    body._links = {
      self: [{ href: r.urls.rest(`/core/v2/users/${u.id}`) }],
      collection: [{ href: r.urls.rest("/core/v2/users") }],
    };
  }
  return body;
}

const userAllow = (u: GraphUser) => ["GET", ...(u.viewerCan.edit ? ["POST", "PUT", "PATCH"] : []), ...(u.viewerCan.delete ? ["DELETE"] : [])].join(", ");

function userResponse(u: GraphUser, r: RestRequest, context: string, status = 200): RestResult {
  return { status, body: userBody(u, context, r), headers: { Allow: userAllow(u) } };
}

// ---- operations ----

const LIST = gql`query ListUsers($where: UserWhere, $page: Int, $perPage: Int, $offset: Int, $order: SortOrder, $orderBy: UserOrderBy, $editing: Boolean) {
  users(where: $where, page: $page, perPage: $perPage, offset: $offset, order: $order, orderBy: $orderBy, editing: $editing) { totalCount totalPages nodes { ${USER_FIELDS} } } }`;
const READ = gql`query ReadUser($id: Int!) { user(id: $id) { ${USER_FIELDS} } }`;
const ME = gql`query ReadViewer { viewer { ${USER_FIELDS} } }`;
const CREATE = gql`mutation CreateUser($input: UserInput!) { createUser(input: $input) { ${USER_FIELDS} } }`;
const UPDATE = gql`mutation UpdateUser($id: Int!, $input: UserInput!) { updateUser(id: $id, input: $input) { ${USER_FIELDS} } }`;
const DELETE = gql`mutation DeleteUser($id: Int!, $force: Boolean, $reassign: Int) { deleteUser(id: $id, force: $force, reassign: $reassign) { deleted previous { ${USER_FIELDS} } } }`;

const mayEditUsers = (identity: Identity) => can(identity.site?.roles, "edit_users");
const mayDeleteUsers = (identity: Identity) => can(identity.site?.roles, "delete_users");
/** The signed-in user's id; 0 (no such user) for anonymous callers, so they get WordPress's 404. */
const selfId = (r: RestRequest) => r.identity.site?.userId ?? 0;

function updateEndpoint(id: (r: RestRequest) => number, args: Record<string, ArgSchema>, allowed: (i: Identity) => boolean, batch: boolean): SiteEndpoint {
  return {
    methods: ["POST", "PUT", "PATCH"], args, allowBatch: batch, operation: UPDATE, allowed,
    variables: (r) => ({ id: id(r), input: userInput(r) }),
    respond: (data, r) => userResponse(data.updateUser as GraphUser, r, "edit"),
  };
}

function deleteEndpoint(id: (r: RestRequest) => number, args: Record<string, ArgSchema>, allowed: (i: Identity) => boolean, batch: boolean): SiteEndpoint {
  return {
    methods: ["DELETE"], args, allowBatch: batch, operation: DELETE, allowed,
    variables: (r) => ({ id: id(r), force: r.params.force, reassign: r.params.reassign === false ? null : r.params.reassign }),
    respond: (data, r) => ({ body: { deleted: true, previous: userBody((data.deleteUser as { previous: GraphUser }).previous, "edit", r, false) } }),
  };
}

export const userRoutes: SiteRoute[] = [
  route(NS, "/users", [
    {
      methods: ["GET"], args: LIST_ARGS, allowBatch: true, operation: LIST, variables: listVariables,
      respond: (data, r) => {
        const { nodes, totalCount, totalPages } = data.users as { nodes: GraphUser[]; totalCount: number; totalPages: number };
        // WordPress derives the page of the Link header from the offset.
        const page = r.params.offset ? Math.ceil(r.params.offset / r.params.per_page + 1) : r.params.page;
        const link = pageLinks(r, "/core/v2/users", page, totalPages);
        return {
          body: nodes.map((u) => userBody(u, r.params.context, r)),
          headers: { "X-WP-Total": String(totalCount), "X-WP-TotalPages": String(totalPages), ...(link ? { Link: link } : {}) },
        };
      },
    },
    {
      methods: ["POST"], args: writeArgs(true), allowBatch: true, operation: CREATE,
      allowed: (i) => can(i.site?.roles, "create_users"),
      variables: (r) => ({ input: userInput(r) }),
      respond: (data, r) => {
        const u = data.createUser as GraphUser;
        return { status: 201, body: userBody(u, "edit", r), headers: { Location: r.urls.rest(`/core/v2/users/${u.id}`) } };
      },
    },
  ]),
  route(NS, `/users/${ID}`, [
    {
      methods: ["GET"], args: { id: idArg, context: contextArg() }, allowBatch: true, operation: READ,
      variables: (r) => ({ id: r.params.id }),
      respond: (data, r) => {
        const u = data.user as GraphUser;
        // Edit context is for the user themself and those who may list users (their private fields came back).
        if (r.params.context === "edit" && u.username === null) return wpError("rest_user_cannot_view", "Sorry, you are not allowed to list users.", authCode(r.identity));
        return userResponse(u, r, r.params.context);
      },
    },
    updateEndpoint((r) => r.params.id, { id: idArg, ...writeArgs(false) }, mayEditUsers, true),
    deleteEndpoint((r) => r.params.id, { id: idArg, ...DELETE_ARGS }, mayDeleteUsers, true),
  ]),
  route(NS, "/users/me", [
    {
      methods: ["GET"], args: { context: contextArg() }, operation: ME,
      respond: (data, r) => (data.viewer
        ? userResponse(data.viewer as GraphUser, r, r.params.context)
        : wpError("rest_not_logged_in", "You are not currently logged in.", 401)),
    },
    updateEndpoint(selfId, writeArgs(false), (i) => !!i.site, false),
    deleteEndpoint(selfId, DELETE_ARGS, mayDeleteUsers, false),
  ]),
];
