// core/v2/users/{user_id}/application-passwords: WordPress's application-passwords controller
// (core 5.6+). The collection (list, create, delete all), one password by uuid (read, rename,
// revoke) and `introspect` (the password the request signed in with). `user_id` is an id or `me`.
// The graph finds the user first (404), then asks edit_user of them; the secret is in the create
// answer only. Not batchable, as in WordPress.
import {
  CreateApplicationPasswordDocument, DeleteApplicationPasswordDocument, DeleteApplicationPasswordsDocument,
  IntrospectApplicationPasswordDocument, ListApplicationPasswordsDocument, ReadApplicationPasswordDocument,
  UpdateApplicationPasswordDocument, UserEditPermissionDocument, type ApplicationPasswordFieldsFragment,
} from "../../../../../generated/graphql/operations.ts";
import { contextArg } from "../../kit/args.ts";
import { contextOf, inputOf, op, opEndpoint } from "../../kit/crud.ts";
import { allowedOn } from "../../kit/operation.ts";
import { itemSchema, present, writeArgs, type Context, type Resource } from "../../kit/resource.ts";
import { route, type ArgSchema, type RestRequest, type RestResult, type SiteRoute } from "../../route.ts";
import { wpGmt } from "./wp-values.ts";

/** A stored password; `password` only in the answer that created it. */
type ApplicationPasswordNode = ApplicationPasswordFieldsFragment & { password?: string };

const NS = "core/v2";
const BASE = "/users/(?P<user_id>(?:[\\d]+|me))/application-passwords";
const ALL: Context[] = ["view", "edit", "embed"];
const VIEW_EDIT: Context[] = ["view", "edit"];

const field = (description: string, type: ArgSchema["type"], context: Context[], extra: Partial<ArgSchema> = {}): ArgSchema => ({ description, type, context, ...extra });

export const APPLICATION_PASSWORD: Resource<ApplicationPasswordNode> = {
  title: "application-password",
  fields: {
    uuid: { schema: field("The unique identifier for the application password.", "string", ALL, { format: "uuid", readonly: true }), read: (p) => p.uuid },
    app_id: {
      schema: {
        description: "A uuid provided by the application to uniquely identify it. It is recommended to use an UUID v5 with the URL or DNS namespace.",
        oneOf: [{ type: "string", format: "uuid" }, { type: "string", enum: [""] }], context: ALL,
      },
      read: (p) => p.appId, input: "appId",
    },
    name: {
      schema: field("The name of the application password.", "string", ALL, { minLength: 1, pattern: ".*\\S.*" }),
      read: (p) => p.name, input: "name", requiredOnCreate: true,
    },
    password: { schema: field("The generated password. Only available after adding an application.", "string", ["edit"], { readonly: true }), read: (p) => p.password },
    created: { schema: field("The GMT date the application password was created.", "string", VIEW_EDIT, { format: "date-time", readonly: true }), read: (p) => wpGmt(p.created) },
    last_used: { schema: field("The GMT date the application password was last used.", ["string", "null"], VIEW_EDIT, { format: "date-time", readonly: true }), read: (p) => wpGmt(p.lastUsed) },
    last_ip: { schema: field("The IP address the application password was last used by.", ["string", "null"], VIEW_EDIT, { format: "ip", readonly: true }), read: (p) => p.lastIp },
  },
  links: (p, view) => ({ self: [{ href: view.urls.rest(selfPath(p)) }] }),
};

const selfPath = (p: ApplicationPasswordNode) => `/${NS}/users/${p.userId}/application-passwords/${p.uuid}`;

/** `me` is the signed-in user, which the graph spells null. */
const owner = (r: RestRequest) => (r.params.user_id === "me" ? null : Number(r.params.user_id));
const uuid = (r: RestRequest) => String(r.params.uuid);
const input = inputOf(APPLICATION_PASSWORD);

/**
 * Every endpoint needs edit_user of the user the path names (`me`: the caller), as WordPress's
 * permission callbacks check it: anyone signed in for themselves, edit_users for others.
 */
const manage = allowedOn(UserEditPermissionDocument, (p, identity) => {
  const id = p.user_id === "me" ? identity.site?.userId : Number(p.user_id);
  // No user has an id beyond int4 (the route answers 404): nothing to ask.
  return id === undefined || id > 2 ** 31 - 1 ? null : { id };
}, (d) => d.user?.viewerCan.edit ?? false);

const shown = (p: ApplicationPasswordNode, r: RestRequest, context: Context, links = true) =>
  present(APPLICATION_PASSWORD, p, { context, urls: r.urls }, { links });
const item = (context: (r: RestRequest) => Context) => (p: ApplicationPasswordNode, r: RestRequest): RestResult => ({ body: shown(p, r, context(r)) });
const CONTEXT = { context: contextArg() };
const schema = itemSchema(APPLICATION_PASSWORD);

export const applicationPasswordRoutes: SiteRoute[] = [
  route(NS, BASE, [
    opEndpoint({ methods: ["GET"], args: CONTEXT, allowed: manage },
      op(ListApplicationPasswordsDocument, (r) => ({ userId: owner(r) }), (d) => d.applicationPasswords!),
      (passwords, r) => ({ body: passwords.map((p) => shown(p, r, contextOf(r))) })),
    opEndpoint({ methods: ["POST"], args: writeArgs(APPLICATION_PASSWORD, "create"), allowed: manage },
      op(CreateApplicationPasswordDocument, (r) => ({ userId: owner(r), input: input(r) }), (d) => d.createApplicationPassword!),
      ({ password, applicationPassword }, r) =>
        ({ status: 201, body: shown({ ...applicationPassword, password }, r, "edit"), headers: { Location: r.urls.rest(selfPath(applicationPassword)) } })),
    opEndpoint({ methods: ["DELETE"], args: {}, allowed: manage },
      op(DeleteApplicationPasswordsDocument, (r) => ({ userId: owner(r) }), (d) => d.deleteApplicationPasswords!),
      (result) => ({ body: { deleted: result.deleted, count: result.count } })),
  ], schema),
  // Declared before `{uuid}`, whose pattern would take "introspect" too.
  route(NS, `${BASE}/introspect`, [
    opEndpoint({ methods: ["GET"], args: CONTEXT, allowed: manage },
      op(IntrospectApplicationPasswordDocument, (r) => ({ userId: owner(r) }), (d) => d.currentApplicationPassword!), item(contextOf)),
  ], schema),
  route(NS, `${BASE}/(?P<uuid>[\\w\\-]+)`, [
    opEndpoint({ methods: ["GET"], args: CONTEXT, allowed: manage },
      op(ReadApplicationPasswordDocument, (r) => ({ userId: owner(r), uuid: uuid(r) }), (d) => d.applicationPassword!), item(contextOf)),
    opEndpoint({ methods: ["POST", "PUT", "PATCH"], args: writeArgs(APPLICATION_PASSWORD, "update"), allowed: manage },
      op(UpdateApplicationPasswordDocument, (r) => ({ userId: owner(r), uuid: uuid(r), input: input(r) }), (d) => d.updateApplicationPassword!),
      item(() => "edit")),
    opEndpoint({ methods: ["DELETE"], args: {}, allowed: manage },
      op(DeleteApplicationPasswordDocument, (r) => ({ userId: owner(r), uuid: uuid(r) }), (d) => d.deleteApplicationPassword!),
      ({ deleted, previous }, r) => ({ body: { deleted, previous: shown(previous, r, "edit", false) } })),
  ], schema),
];
