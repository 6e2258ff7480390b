// core/v2/users: the list, one user, `me`, and user create/update/delete, as WordPress's users
// controller serves them (a post's `author` link and its `_embed` land here too). Users and
// users/{id} may be batched (WordPress 6.6+); `me` may not. Each endpoint is one typed operation
// of users.graphql.
import {
  CreateUserDocument, DeleteUserDocument, ListUsersDocument, ReadUserDocument, ReadViewerDocument, SignedInDocument,
  SitePermissionsDocument, UpdateUserDocument, UserPermissionsDocument,
  type SortOrder, type UserFieldsFragment, type UserOrderBy,
} from "../../../../../generated/graphql/operations.ts";
import { REST_POST_TYPES } from "../../../../../lib/wordpress/post-values.ts";
import { wpError } from "../../errors.ts";
import { route, type ArgError, type ArgSchema, type RestRequest, type RestResult, type SiteRoute } from "../../route.ts";
import { collectionArgs, contextArg, EXCLUDE_INCLUDE, forceArg, offsetArg, orderArg, pageSize, strs, upper, type Args } from "../../kit/args.ts";
import { byId, contextOf, crudRoutes, deletion, forbidden, inputOf, itemAllow, op, opEndpoint, removal } from "../../kit/crud.ts";
import { allowedBy } from "../../kit/operation.ts";
import { itemSchema, present, writeArgs, type Context, type Resource } from "../../kit/resource.ts";

type UserNode = UserFieldsFragment;

const ALL: Context[] = ["embed", "view", "edit"];
const EDIT: Context[] = ["edit"];

const invalid = (code: string, message: string): ArgError => ({ code, message, data: { status: 400 } });

/** sanitize_user( $username, true ) must leave the name unchanged (WordPress's check_username). */
function checkUsername(value: unknown) {
  const name = String(value);
  const clean = name.replace(/<[^>]*>/g, "").normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/%[a-fA-F0-9]{2}/g, "")
    .replace(/&.+?;/g, "").replace(/[^a-z0-9 _.\-@]/gi, "").trim().replace(/\s+/g, " ");
  return name === "" || clean !== name ? invalid("rest_user_invalid_username", "Username contains invalid characters.") : name;
}

function checkPassword(value: unknown) {
  const password = String(value);
  if (password === "") return invalid("rest_user_invalid_password", "Passwords cannot be empty.");
  if (password.includes("\\")) return invalid("rest_user_invalid_password", "Passwords cannot contain the \"\\\" character.");
  return password;
}

const asObject = (keys: readonly string[] | null) => Object.fromEntries((keys ?? []).map((k) => [k, true]));
const field = (description: string, type: ArgSchema["type"], context: Context[], extra: Partial<ArgSchema> = {}): ArgSchema => ({ description, type, context, ...extra });
const avatarSize = (size: number): ArgSchema => field(`Avatar URL with image size of ${size} pixels.`, "string", ALL, { format: "uri" });

/** persisted_preferences is the one user meta WordPress registers; it travels as JSON text in the graph. */
const preferencesInput = (meta: unknown) => {
  const preferences = meta && typeof meta === "object" ? (meta as { persisted_preferences?: unknown }).persisted_preferences : undefined;
  return preferences && typeof preferences === "object" ? JSON.stringify(preferences) : undefined;
};

/** A user, in the order WordPress answers; private fields are read in edit context only. */
export const USER: Resource<UserNode> = {
  title: "user",
  fields: {
    id: { schema: field("Unique identifier for the user.", "integer", ALL, { readonly: true }), read: (u) => u.id },
    username: { schema: field("Login name for the user.", "string", EDIT), read: (u) => u.username, input: "username", arg: { sanitize: checkUsername }, requiredOnCreate: true },
    name: { schema: field("Display name for the user.", "string", ALL), read: (u) => u.name, input: "name" },
    first_name: { schema: field("First name for the user.", "string", EDIT), read: (u) => u.firstName ?? "", input: "firstName" },
    last_name: { schema: field("Last name for the user.", "string", EDIT), read: (u) => u.lastName ?? "", input: "lastName" },
    email: { schema: field("The email address for the user.", "string", EDIT, { format: "email" }), read: (u) => u.email, input: "email", requiredOnCreate: true },
    url: { schema: field("URL of the user.", "string", ALL, { format: "uri" }), read: (u) => u.url, input: "url" },
    description: { schema: field("Description of the user.", "string", ALL), read: (u) => u.description, input: "description" },
    link: { schema: field("Author URL of the user.", "string", ALL, { format: "uri", readonly: true }), read: (u) => u.link },
    locale: { schema: field("Locale for the user.", "string", EDIT, { enum: ["", "en_US"] }), read: (u) => u.locale ?? "en_US", input: "locale" },
    nickname: { schema: field("The nickname for the user.", "string", EDIT), read: (u) => u.nickname ?? u.username, input: "nickname" },
    slug: { schema: field("An alphanumeric identifier for the user.", "string", ALL), read: (u) => u.slug, input: "slug" },
    roles: { schema: field("Roles assigned to the user.", "array", EDIT, { items: { type: "string" } }), read: (u) => u.roles ?? [], input: "roles" },
    registered_date: { schema: field("Registration date for the user.", "string", EDIT, { format: "date-time", readonly: true }), read: (u) => u.registeredDate },
    password: {
      schema: field("Password for the user (never included).", "string", EDIT), input: "password", arg: { sanitize: checkPassword }, requiredOnCreate: true,
    },
    capabilities: { schema: field("All capabilities assigned to the user.", "object", EDIT, { readonly: true }), read: (u) => asObject(u.capabilities) },
    extra_capabilities: { schema: field("Any extra capabilities assigned to the user.", "object", EDIT, { readonly: true }), read: (u) => asObject(u.extraCapabilities) },
    avatar_urls: {
      schema: field("Avatar URLs for the user.", "object", ALL, { readonly: true, properties: { 24: avatarSize(24), 48: avatarSize(48), 96: avatarSize(96) } }),
      read: (u) => ({ 24: u.avatarUrls.size24, 48: u.avatarUrls.size48, 96: u.avatarUrls.size96 }),
    },
    meta: {
      schema: field("Meta fields.", "object", ["view", "edit"], {
        properties: {
          persisted_preferences: {
            type: "object", description: "", default: [], context: EDIT,
            properties: { _modified: { description: "The date and time the preferences were updated.", type: "string", format: "date-time", readonly: false } },
            additionalProperties: true,
          },
        },
      }),
      // Shown in edit context only; elsewhere the emptied meta is a PHP empty array, [].
      read: (u, view) => (view.context === "edit" ? { persisted_preferences: u.persistedPreferences ? JSON.parse(u.persistedPreferences) as unknown : [] } : []),
      input: ["persistedPreferences", preferencesInput],
    },
  },
  links: (u, view) => ({ self: [{ href: view.urls.rest(`/core/v2/users/${u.id}`) }], collection: [{ href: view.urls.rest("/core/v2/users") }] }),
};

const USER_ORDERBY = ["id", "include", "name", "registered_date", "slug", "include_slugs", "email", "url"];

const LIST_ARGS: Args = {
  ...collectionArgs(pageSize("users")),
  ...EXCLUDE_INCLUDE,
  offset: offsetArg,
  order: orderArg("asc"),
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

/** check_reassign: a number, or an empty value / "false" meaning "delete their posts". */
function checkReassign(value: unknown) {
  if (typeof value === "number" || (typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value))) return Math.abs(Math.trunc(Number(value)));
  if (value === false || value === "" || value === "false" || value === 0 || value === null) return false;
  return invalid("rest_invalid_param", "Invalid user parameter(s).");
}

const FORCE = "Required to be true, as users do not support trashing.";
const DELETE_ARGS: Args = {
  force: forceArg(FORCE),
  reassign: { type: "integer", description: "Reassign the deleted user's posts and links to this user ID.", required: true, skipValidation: true, sanitize: checkReassign },
};

const idArg: ArgSchema = { description: "Unique identifier for the user.", type: "integer" };

function listVariables(r: RestRequest) {
  const p = r.params;
  const published: unknown = p.has_published_posts;
  return {
    where: {
      search: p.search, include: p.include, exclude: p.exclude, slug: strs(p.slug), roles: strs(p.roles), capabilities: strs(p.capabilities),
      who: p.who === "authors" ? "AUTHORS" as const : null,
      hasPublishedPosts: published === true ? true : null,
      publishedPostTypes: Array.isArray(published) && published.length ? published.map(String) : null,
    },
    page: p.page as number, perPage: p.per_page as number, offset: p.offset ?? null,
    order: upper<SortOrder>(p.order), orderBy: upper<UserOrderBy>(p.orderby), editing: p.context === "edit",
  };
}

const userInput = inputOf(USER);
/** `reassign=false` (checked above) means "delete their posts", which the graph spells null. */
const reassign = (r: RestRequest) => (r.params.reassign === false ? null : r.params.reassign as number);

/** Creating needs create_users; editing or deleting another user edit_users / delete_users: the graph decides. */
const canCreate = allowedBy(SitePermissionsDocument, (d) => d.viewerCan?.createUsers ?? false);
const canEdit = allowedBy(UserPermissionsDocument, (d) => d.viewerCan?.editUsers ?? false);
const canDelete = allowedBy(UserPermissionsDocument, (d) => d.viewerCan?.deleteUsers ?? false);
/** Everyone signed in may edit themselves. */
const signedIn = allowedBy(SignedInDocument, (d) => d.viewer !== null);

/** The signed-in user's id; 0 (no such user) for visitors, so they get WordPress's 404. */
const selfId = (r: RestRequest) => r.identity.site?.userId ?? 0;

const userResult = (u: UserNode, r: RestRequest, context: Context): RestResult =>
  ({ body: present(USER, u, { context, urls: r.urls }), headers: { Allow: itemAllow(u) } });

export const userRoutes: SiteRoute[] = [
  ...crudRoutes({
    namespace: "core/v2", path: "/users", resource: USER, batch: true, idArg,
    allow: { create: canCreate, update: canEdit, delete: canDelete },
    list: {
      args: LIST_ARGS,
      op: op(ListUsersDocument, listVariables, (d) => d.users!),
      // WordPress derives the page of the Link header from the offset.
      page: (r) => (r.params.offset ? Math.ceil(r.params.offset / (r.params.per_page ?? 10) + 1) : r.params.page ?? 1),
    },
    create: { op: op(CreateUserDocument, (r) => ({ input: userInput(r) }), (d) => d.createUser!) },
    read: {
      op: op(ReadUserDocument, byId, (d) => d.user!),
      // Edit context is for the user themself and those who may list users (their private fields came back).
      refuse: (u, r) => (contextOf(r) === "edit" && u.username === null ? forbidden(r, "rest_user_cannot_view", "Sorry, you are not allowed to list users.") : undefined),
    },
    update: { op: op(UpdateUserDocument, (r) => ({ ...byId(r), input: userInput(r) }), (d) => d.updateUser!) },
    delete: {
      force: FORCE, args: { id: idArg, ...DELETE_ARGS },
      op: op(DeleteUserDocument, (r) => ({ ...removal(r), reassign: reassign(r) }), (d) => deletion(d.deleteUser!)),
    },
  }),
  route("core/v2", "/users/me", [
    opEndpoint({ methods: ["GET"], args: { context: contextArg() } }, op(ReadViewerDocument, () => ({}), (d) => d.viewer), (u, r) =>
      (u ? userResult(u, r, contextOf(r)) : wpError("rest_not_logged_in", "You are not currently logged in.", 401))),
    opEndpoint({ methods: ["POST", "PUT", "PATCH"], args: writeArgs(USER, "update"), allowed: signedIn },
      op(UpdateUserDocument, (r) => ({ id: selfId(r), input: userInput(r) }), (d) => d.updateUser!), (u, r) => userResult(u, r, "edit")),
    opEndpoint({ methods: ["DELETE"], args: DELETE_ARGS, allowed: canDelete },
      op(DeleteUserDocument, (r) => ({ id: selfId(r), force: r.params.force as boolean, reassign: reassign(r) }), (d) => d.deleteUser!.previous),
      (previous, r) => ({ body: { deleted: true, previous: present(USER, previous, { context: "edit", urls: r.urls }, { links: false }) } })),
  ], itemSchema(USER)),
];
