// Users (/api/v2/users…), OTP and passwordless login. Paths the seed does not show, in the API's
// style: /users and /users/{id} (administrators), /users/me (anyone signed in), /users/me/otp
// (set up: POST starts, POST /users/me/otp/confirm finishes, DELETE turns off), DELETE
// /users/{id}/otp (an administrator's reset), /users/{id}/login-tokens (passwordless tokens),
// /otp-policy (who must use OTP; pending until apply-settings) and POST /passwordless-login.
// A user's `domains` and the policy's `users` are JSON arrays, as list properties are in the API.
import {
  ConfirmOtpEnrollmentDocument, CreateGatewayLoginTokenDocument, CreateGatewayUserDocument, DeleteGatewayUserDocument,
  DisableOtpDocument, GatewayLoginTokensDocument, GatewayMeDocument, GatewayPasswordlessLoginDocument, GatewayUserDocument,
  GatewayUsersDocument, OtpPolicyDocument, ResetGatewayUserOtpDocument, RevokeGatewayLoginTokenDocument, StartOtpEnrollmentDocument,
  UpdateGatewayUserDocument, UpdateOtpPolicyDocument,
  type GatewayIdentityProvider, type GatewayUserPropertiesFragment, type GatewayUserRole, type OtpMandatory,
} from "../../../../generated/graphql/operations.ts";
import { INT32_MAX } from "../../../../lib/gateway/collection-rules.ts";
import { GATEWAY_ROLES } from "../../../../lib/gateway/roles.ts";
import { itemResult, shownProperties } from "../formats.ts";
import { actionOperation, type Json, type JsonObject } from "../openapi.ts";
import { GatewayProblem } from "../problems.ts";
import { resource, type AnyResource } from "../resource.ts";
import { collectionRoute } from "../resource-routes.ts";
import { restrictedTo, route, type GatewayRoute, type GatewayRequest, type RunOperation } from "../route.ts";
import { bodyObject, readWritable, singletonResult } from "./singleton.ts";
import { errorResponses } from "./singleton.ts";

export const gatewayUser = resource({
  name: "User",
  description: "A user of the management interface.",
  path: "/users",
  properties: {
    id: { type: "integer", readOnly: true, filter: true, order: true },
    username: { type: "string", filter: true, order: true },
    password: { type: "string", format: "password", writeOnly: true, description: "At least 8 characters; required to create a local user." },
    fullName: { type: "string", description: "Empty when unknown (notifications then use the username)." },
    email: { type: "string", format: "email", filter: true, order: true },
    role: { type: "enum", values: GATEWAY_ROLES, description: "api: no permissions of its own, acts through X-Switch-User." },
    domains: { type: "string", format: "hostname", list: true, description: "Domains a domain administrator administers." },
    identityProvider: { type: "enum", values: ["local", "external"], description: "external: signs in at an external identity provider; OTP is unavailable." },
    otp: { type: "enum", values: ["unavailable", "disabled", "required", "enabled"], readOnly: true, description: "How OTP stands for the user." },
    createdAt: { type: "datetime", readOnly: true, filter: true, order: true },
  },
});

export const otpPolicy = resource({
  name: "OtpPolicy",
  description: "Who must use one-time passwords; changes are pending until POST /appliance/apply-settings.",
  path: "/otp-policy",
  properties: {
    mandatory: { type: "enum", values: ["none", "all", "selected"] },
    users: { type: "string", list: true, description: "Usernames OTP is mandatory for when mandatory is selected." },
    pendingChanges: { type: "boolean", readOnly: true },
  },
});

export const otpEnrollment = resource({
  name: "OtpEnrollment",
  description: "An OTP secret being set up: add it to an authenticator (the URI as a QR code), then confirm with a code.",
  properties: {
    secret: { type: "string", readOnly: true },
    uri: { type: "string", readOnly: true },
    code: { type: "string", writeOnly: true, description: "To confirm: the authenticator's current code." },
  },
});

export const loginToken = resource({
  name: "LoginToken",
  description: "A passwordless login token; `token` is shown only when it is created.",
  properties: {
    id: { type: "string", readOnly: true },
    label: { type: "string" },
    token: { type: "string", readOnly: true, description: "Send it to POST /passwordless-login. Shown once." },
    createdAt: { type: "datetime", readOnly: true },
    expiresAt: { type: "datetime", description: "Null: never." },
    lastUsedAt: { type: "datetime", readOnly: true, description: "The last sign-in with it." },
  },
});

export const passwordlessCredentials = resource({
  name: "PasswordlessCredentials",
  properties: {
    loginToken: { type: "string", writeOnly: true },
    otp: { type: "string", writeOnly: true, description: "When the user has OTP set up." },
    token: { type: "string", readOnly: true, description: "Send it as X-ESG-Auth-Token." },
    expiresAt: { type: "datetime", readOnly: true },
    otpEnrollmentRequired: { type: "boolean", readOnly: true },
  },
});

const SECURITY: Json = [{ esgToken: [] }];
const errorRefs = errorResponses;
const schemaOf = (r: AnyResource): JsonObject => ({ $ref: `#/components/schemas/${r.name}` });
const op = (operationId: string, summary: string, tag: AnyResource, statuses: number[], extra: JsonObject = {}): JsonObject => ({
  operationId, tags: [tag.name], summary, security: SECURITY, ...extra,
  responses: { 200: { description: tag.name, content: { "application/json": { schema: schemaOf(tag) } } }, ...errorRefs(...statuses) },
});
const noContent = (operationId: string, summary: string, tag: AnyResource, statuses: number[]): JsonObject => ({
  operationId, tags: [tag.name], summary, security: SECURITY, responses: { 204: { description: "Done" }, ...errorRefs(...statuses) },
});
const jsonBody = (r: AnyResource, type = "application/json"): JsonObject => ({ requestBody: { required: true, content: { [type]: { schema: schemaOf(r) } } } });

/** A user as REST shows it: roles and providers as the API writes them. */
const restUser = (u: GatewayUserPropertiesFragment) => ({
  ...u, role: u.role.replace("_", "-") as "admin" | "domain-admin" | "user" | "api",
  // Shown as null when the user has none (the kit's property types have no nullable string).
  email: u.email as string,
});

/** The GraphQL input from a user body: REST's spellings back to GraphQL's. */
function userInput(request: GatewayRequest) {
  const body = readWritable<Record<string, string | null> & { domains?: string[] | null }>(gatewayUser, bodyObject(request));
  const { domains, role, identityProvider, ...rest } = body;
  return {
    ...rest,
    ...(domains !== undefined ? { domains: domains ?? [] } : {}),
    ...(role ? { role: role.replace("-", "_") as GatewayUserRole } : {}),
    ...(identityProvider ? { identityProvider: identityProvider as GatewayIdentityProvider } : {}),
  };
}

const userId = (request: GatewayRequest): number => {
  const id = Number(request.pathParams.id);
  if (!(id <= INT32_MAX)) throw new GatewayProblem(404, "Not Found");
  return id;
};

const policyResult = (p: { mandatory: string; users: string[]; pendingChanges: boolean }, request: GatewayRequest) =>
  singletonResult(otpPolicy, p, request.format);

async function writePolicy(request: GatewayRequest, run: RunOperation) {
  const body = readWritable<{ mandatory: string; users: string[] | null }>(otpPolicy, bodyObject(request));
  const input = {
    ...(body.mandatory ? { mandatory: body.mandatory as OtpMandatory } : {}),
    ...(body.users !== undefined ? { users: body.users ?? [] } : {}),
  };
  return policyResult((await run(UpdateOtpPolicyDocument, { input })).updateOtpPolicy, request);
}

/** One path, one route: more methods on a route the kit made (the table matches a path once). */
const withEndpoints = (base: GatewayRoute, more: GatewayRoute["endpoints"]): GatewayRoute => ({ ...base, endpoints: [...base.endpoints, ...more] });

export const USER_ROUTES: GatewayRoute[] = [
  route("/passwordless-login", [{
    methods: ["POST"], auth: false, body: true, resource: passwordlessCredentials,
    openapi: actionOperation(passwordlessCredentials, { operationId: "passwordlessLogin", summary: "Signs in with a passwordless login token; its use is recorded.", auth: false, errors: [400, 401, 415] }),
    handle: async (request, run) => {
      const body = bodyObject(request);
      if (typeof body.loginToken !== "string" || !body.loginToken) throw new GatewayProblem(400, 'The key "loginToken" must be a non-empty string.');
      if (body.otp !== undefined && typeof body.otp !== "string") throw new GatewayProblem(400, 'The key "otp" must be a string.');
      const data = await run(GatewayPasswordlessLoginDocument, { token: body.loginToken, otp: body.otp as string | undefined });
      const login = data.gatewayPasswordlessLogin;
      // As /login: otpEnrollmentRequired only when true.
      return { body: shownProperties(passwordlessCredentials, login.otpEnrollmentRequired ? login : { ...login, otpEnrollmentRequired: undefined }) };
    },
  }]),
  // The user list and its POST: administrators (the collection route is the kit's).
  ...restrictedTo("admin", [withEndpoints(collectionRoute(gatewayUser, {
    operation: GatewayUsersDocument,
    variables: (query) => query,
    page: (data) => ({ ...data.gatewayUsers, items: data.gatewayUsers.items.map(restUser) }),
  }), [{
    methods: ["POST"], auth: true, body: true, negotiate: true, resource: gatewayUser,
    openapi: op("postUser", "Creates a User resource.", gatewayUser, [400, 401, 403, 415, 422], jsonBody(gatewayUser)),
    handle: async (request, run) => {
      const data = await run(CreateGatewayUserDocument, { input: userInput(request) });
      return { ...itemResult(gatewayUser, restUser(data.createGatewayUser), request.format), status: 201 };
    },
  }])]),
  route("/users/me", [{
    methods: ["GET"], auth: true, negotiate: true, resource: gatewayUser,
    openapi: op("getCurrentUser", "The signed-in user.", gatewayUser, [401, 406]),
    handle: async (request, run) => itemResult(gatewayUser, restUser((await run(GatewayMeDocument, {})).gatewayMe), request.format),
  }]),
  route("/users/me/otp", [
    {
      methods: ["POST"], auth: true, resource: otpEnrollment,
      openapi: op("startOtpEnrollment", "Starts setting up OTP: the secret and its otpauth URI, shown once.", otpEnrollment, [401, 409]),
      handle: async (_request, run) => ({ body: (await run(StartOtpEnrollmentDocument, {})).startOtpEnrollment }),
    },
    {
      methods: ["DELETE"], auth: true,
      openapi: noContent("disableOtp", "Turns the signed-in user's OTP off (refused while mandatory for them).", otpEnrollment, [401, 409]),
      handle: async (_request, run) => { await run(DisableOtpDocument, {}); return { status: 204, body: undefined }; },
    },
  ]),
  route("/users/me/otp/confirm", [{
    methods: ["POST"], auth: true, body: true, negotiate: true, resource: gatewayUser,
    openapi: op("confirmOtpEnrollment", "Finishes setting up OTP with the authenticator's current code.", gatewayUser, [400, 401, 409, 422], jsonBody(otpEnrollment)),
    handle: async (request, run) => {
      const { code } = bodyObject(request);
      if (typeof code !== "string") throw new GatewayProblem(422, "code: This value should be of type string.", [{ propertyPath: "code", message: "This value should be of type string." }]);
      return itemResult(gatewayUser, restUser((await run(ConfirmOtpEnrollmentDocument, { code })).confirmOtpEnrollment), request.format);
    },
  }]),
  route("/users/{id}", [
    {
      methods: ["GET"], auth: true, access: "admin", negotiate: true, resource: gatewayUser,
      openapi: op("getUserItem", "Retrieves a User resource.", gatewayUser, [401, 403, 404, 406]),
      handle: async (request, run) => {
        const user = (await run(GatewayUserDocument, { id: userId(request) })).gatewayUser;
        if (!user) throw new GatewayProblem(404, "Not Found");
        return itemResult(gatewayUser, restUser(user), request.format);
      },
    },
    {
      methods: ["PATCH"], auth: true, access: "admin", body: true, negotiate: true, resource: gatewayUser,
      openapi: op("patchUserItem", "Updates the User resource (a new password or role ends their sessions).", gatewayUser, [400, 401, 403, 404, 415, 422], jsonBody(gatewayUser, "application/merge-patch+json")),
      handle: async (request, run) => {
        const data = await run(UpdateGatewayUserDocument, { id: userId(request), input: userInput(request) });
        return itemResult(gatewayUser, restUser(data.updateGatewayUser), request.format);
      },
    },
    {
      methods: ["DELETE"], auth: true, access: "admin",
      openapi: noContent("deleteUserItem", "Removes the User resource.", gatewayUser, [401, 403, 404, 409]),
      handle: async (request, run) => {
        if (!(await run(DeleteGatewayUserDocument, { id: userId(request) })).deleteGatewayUser) throw new GatewayProblem(404, "Not Found");
        return { status: 204, body: undefined };
      },
    },
  ], { id: "\\d+" }),
  route("/users/{id}/otp", [{
    methods: ["DELETE"], auth: true, access: "admin",
    openapi: noContent("resetUserOtp", "Resets a user's OTP: they set it up again.", gatewayUser, [401, 403, 404]),
    handle: async (request, run) => { await run(ResetGatewayUserOtpDocument, { id: userId(request) }); return { status: 204, body: undefined }; },
  }], { id: "\\d+" }),
  route("/users/{id}/login-tokens", [
    {
      methods: ["GET"], auth: true, access: "selfOrAdmin", resource: loginToken,
      openapi: { ...op("getLoginTokens", "A user's passwordless login tokens, with their last use (never their secrets).", loginToken, [401, 403]), responses: { 200: { description: "LoginToken list", content: { "application/json": { schema: { type: "array", items: schemaOf(loginToken) } } } }, ...errorRefs(401, 403) } },
      handle: async (request, run) => ({ body: (await run(GatewayLoginTokensDocument, { userId: userId(request) })).gatewayLoginTokens.map((t) => ({ ...t, token: undefined })) }),
    },
    {
      methods: ["POST"], auth: true, access: "selfOrAdmin", body: true, resource: loginToken,
      openapi: op("postLoginToken", "Creates a passwordless login token; the token is shown once.", loginToken, [400, 401, 403, 404, 415, 422], jsonBody(loginToken)),
      handle: async (request, run) => {
        const body = readWritable<{ label: string; expiresAt: string }>(loginToken, bodyObject(request));
        const data = await run(CreateGatewayLoginTokenDocument, { userId: userId(request), label: body.label ?? "", expiresAt: body.expiresAt ?? null });
        return { status: 201, body: data.createGatewayLoginToken };
      },
    },
  ], { id: "\\d+" }),
  route("/users/{id}/login-tokens/{tokenId}", [{
    methods: ["DELETE"], auth: true, access: "selfOrAdmin",
    openapi: noContent("deleteLoginToken", "Revokes a passwordless login token.", loginToken, [401, 403, 404]),
    handle: async (request, run) => {
      const done = await run(RevokeGatewayLoginTokenDocument, { userId: userId(request), id: request.pathParams.tokenId });
      if (!done.revokeGatewayLoginToken) throw new GatewayProblem(404, "Not Found");
      return { status: 204, body: undefined };
    },
  }], { id: "\\d+", tokenId: "[A-Za-z0-9_-]{1,64}" }),
  route("/otp-policy", [
    {
      methods: ["GET"], auth: true, access: "admin", negotiate: true, resource: otpPolicy,
      openapi: op("getOtpPolicy", "Retrieves the OtpPolicy resource as saved.", otpPolicy, [401, 403, 406]),
      handle: async (request, run) => policyResult((await run(OtpPolicyDocument, {})).otpPolicy, request),
    },
    {
      methods: ["POST", "PATCH"], auth: true, access: "admin", body: true, negotiate: true, resource: otpPolicy,
      openapi: op("patchOtpPolicy", "Saves the OTP policy as pending (POST /appliance/apply-settings makes it take effect).", otpPolicy, [400, 401, 403, 415, 422], jsonBody(otpPolicy)),
      handle: writePolicy,
    },
  ]),
];
