// Auth (/api/v2/login, /api/v2/logout): a username and password for a session token, sent back
// as X-ESG-Auth-Token, and its revocation. The subgraph's side is subgraphs/gateway/auth/.
import { GatewayLoginDocument, GatewayLogoutDocument } from "../../../../generated/graphql/operations.ts";
import { actionOperation, noContentOperation } from "../openapi.ts";
import { GatewayProblem } from "../problems.ts";
import { resource } from "../resource.ts";
import { shownProperties } from "../formats.ts";
import { route, type GatewayRoute } from "../route.ts";

/** Login's body and answer: credentials go in, never come back; the token comes out. */
export const credentials = resource({
  name: "Credentials",
  properties: {
    username: { type: "string", writeOnly: true },
    password: { type: "string", format: "password", writeOnly: true },
    otp: { type: "string", writeOnly: true, description: "The current code of the user's authenticator, when OTP is set up (a 401 asks for it)." },
    token: { type: "string", readOnly: true, description: "Send it as X-ESG-Auth-Token." },
    expiresAt: { type: "datetime", readOnly: true, description: "Sign in again before this time." },
    otpEnrollmentRequired: { type: "boolean", readOnly: true, description: "Present (true) when OTP is mandatory and not set up: the token may only set it up (POST /users/me/otp)." },
  },
});

/** Symfony's json_login checks (400, not 422): the body is an object whose username and password are strings. */
function readCredentials(body: unknown): { username: string; password: string; otp?: string } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new GatewayProblem(400, "Invalid JSON.");
  const { username, password } = body as Record<string, unknown>;
  if (username === undefined) throw new GatewayProblem(400, 'The key "username" must be provided.');
  if (typeof username !== "string") throw new GatewayProblem(400, 'The key "username" must be a string.');
  if (password === undefined) throw new GatewayProblem(400, 'The key "password" must be provided.');
  if (typeof password !== "string" || password === "") throw new GatewayProblem(400, 'The key "password" must be a non-empty string.');
  const { otp } = body as Record<string, unknown>;
  if (otp !== undefined && typeof otp !== "string") throw new GatewayProblem(400, 'The key "otp" must be a string.');
  return otp === undefined ? { username, password } : { username, password, otp };
}

export const AUTH_ROUTES: GatewayRoute[] = [
  route("/login", [{
    methods: ["POST"], auth: false, body: true, resource: credentials,
    openapi: actionOperation(credentials, { operationId: "login", summary: "Signs in; the token authenticates later calls.", auth: false, errors: [400, 401, 415] }),
    handle: async (request, run) => {
      const data = await run(GatewayLoginDocument, readCredentials(request.body));
      // Clients read `token`; `expiresAt` lets them sign in again before it runs out.
      // otpEnrollmentRequired only when true: clients that read { token, expiresAt } see nothing new.
      const { otpEnrollmentRequired, ...session } = data.gatewayLogin;
      return { body: shownProperties(credentials, otpEnrollmentRequired ? data.gatewayLogin : { ...session, otpEnrollmentRequired: undefined }) };
    },
  }]),
  route("/logout", [{
    methods: ["POST"], auth: true,
    openapi: noContentOperation({ operationId: "logout", summary: "Signs out: the token of the request stops working at once.", tag: credentials.name, errors: [401] }),
    handle: async (_request, run) => {
      await run(GatewayLogoutDocument, {});
      return { status: 204, body: undefined };
    },
  }]),
];
