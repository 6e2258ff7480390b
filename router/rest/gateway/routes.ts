// The /api/v2 route table: every email gateway route, declared once. Matching, 405 + Allow,
// and any index or documentation derive from this list.
import { gql } from "../table.ts";
import { GatewayProblem } from "./problems.ts";
import { collectionResult, itemResult, type Item, type PageData, type Resource } from "./collections.ts";
import { collectionVariables, isFiltered, type CollectionParams } from "./query.ts";
import { route, type GatewayRoute } from "./route.ts";

const ACCOUNTED_EMAIL: Resource = { name: "AccountedEmail", collectionPath: "/api/v2/licensing/accounted-email" };

const ACCOUNTED_EMAIL_FIELDS = "id email type domain firstSeenOn lastSeenOn deliveryCount expiresOn accounted";
const ACCOUNTED_EMAIL_PROPERTIES = ACCOUNTED_EMAIL_FIELDS.split(" ");
// Every property filters and sorts; the subgraph decides which operators each one takes.
const ACCOUNTED_EMAIL_PARAMS: CollectionParams = { filters: ACCOUNTED_EMAIL_PROPERTIES, order: ACCOUNTED_EMAIL_PROPERTIES };

const INT_MAX = 2 ** 31 - 1;
const notFound = () => new GatewayProblem(404, "Not Found");

/** Symfony's json_login checks: the body is an object whose username and password are strings. */
function credentials(body: unknown): { username: string; password: string } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new GatewayProblem(400, "Invalid JSON.");
  const { username, password } = body as Record<string, unknown>;
  if (username === undefined) throw new GatewayProblem(400, 'The key "username" must be provided.');
  if (typeof username !== "string") throw new GatewayProblem(400, 'The key "username" must be a string.');
  if (password === undefined) throw new GatewayProblem(400, 'The key "password" must be provided.');
  if (typeof password !== "string" || password === "") throw new GatewayProblem(400, 'The key "password" must be a non-empty string.');
  return { username, password };
}

export const GATEWAY_ROUTES: GatewayRoute[] = [
  route("/login", [{
    methods: ["POST"], auth: false, body: true,
    operation: gql`mutation GatewayLogin($username: String!, $password: String!) {
      gatewayLogin(username: $username, password: $password) { token expiresAt }
    }`,
    variables: (request) => credentials(request.body),
    // Clients read `token`; `expiresAt` lets them sign in again before it runs out.
    respond: (data) => ({ body: data.gatewayLogin }),
  }]),

  route("/licensing/accounted-email", [{
    methods: ["GET"], auth: true, negotiate: true,
    operation: gql`query AccountedEmails($filter: AccountedEmailFilter, $order: [AccountedEmailOrder!], $page: Int, $itemsPerPage: Int) {
      accountedEmails(filter: $filter, order: $order, page: $page, itemsPerPage: $itemsPerPage) {
        totalItems page itemsPerPage items { ${ACCOUNTED_EMAIL_FIELDS} }
      }
    }`,
    variables: (request) => collectionVariables(request.query, ACCOUNTED_EMAIL_PARAMS),
    respond: (data, request) => collectionResult(
      ACCOUNTED_EMAIL, data.accountedEmails as PageData, request,
      isFiltered(collectionVariables(request.query, ACCOUNTED_EMAIL_PARAMS)),
    ),
  }]),

  route("/licensing/accounted-email/(?P<id>\\d+)", [{
    methods: ["GET"], auth: true, negotiate: true,
    operation: gql`query AccountedEmail($id: Int!) { accountedEmail(id: $id) { ${ACCOUNTED_EMAIL_FIELDS} } }`,
    variables: (request) => {
      const id = Number(request.pathParams.id);
      if (id > INT_MAX) throw notFound();
      return { id };
    },
    respond: (data, request) => {
      const item = data.accountedEmail as Item | null;
      if (!item) throw notFound();
      return itemResult(ACCOUNTED_EMAIL, item, request.format);
    },
  }]),
];
