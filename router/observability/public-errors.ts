// What a client may see of a GraphQL error. The gateway names the subgraph (`serviceName`) on
// every error it relays, and a failed fetch says `request to http://127.0.0.1:4001/graphql failed,
// reason: …`: both describe the inside of the deployment. The log keeps them (with the cause);
// the client gets a stable code and a message that names nothing internal.
import type { GraphQLFormattedError } from "graphql";
import { errorStatus } from "../../lib/errors.ts";

export const SERVICE_UNAVAILABLE = "SERVICE_UNAVAILABLE";
const INTERNAL_ADDRESS = /\b(?:request to|fetch to)\s+https?:\/\/|\bhttps?:\/\/(?:127\.|10\.|192\.168\.|localhost\b|\[::1\])|\bECONNREFUSED\b|\bECONNRESET\b|\bENOTFOUND\b/i;

export function publicError(formatted: GraphQLFormattedError): GraphQLFormattedError {
  const { serviceName, ...extensions } = formatted.extensions ?? {};
  const relayed = serviceName !== undefined;
  const status = errorStatus(extensions);
  // A domain error (a status below 500) is the client's own business, links in its message included.
  if (status !== undefined && status < 500) return relayed ? { ...formatted, extensions } : formatted;
  const path = formatted.path ? { path: formatted.path } : {};
  if (INTERNAL_ADDRESS.test(formatted.message)) {
    return { message: "A service this request needs is unavailable. Try again later.", ...path, extensions: { code: SERVICE_UNAVAILABLE, status: 503 } };
  }
  // A bug (a database error, a stack's worth of Prisma invocation text): the code and a safe message.
  const code = extensions.code;
  if (code === undefined || code === "INTERNAL_SERVER_ERROR") {
    return { message: "An internal error occurred.", ...path, extensions: { code: "INTERNAL_SERVER_ERROR", status: 500 } };
  }
  return relayed ? { ...formatted, extensions } : formatted;
}
