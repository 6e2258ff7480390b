// Authenticate once, at the edge: the router turns the caller's credentials into an Identity
// (lib/authenticate.ts, shared with subgraphs that receive forwarded credentials from another router).
export { authenticate, readCredentials, type Credentials, type SubgraphTarget } from "../lib/authenticate.ts";
