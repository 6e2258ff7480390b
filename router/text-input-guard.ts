// Text no database can store is refused where requests enter: a NUL character (PostgreSQL text
// cannot hold one) or a lone UTF-16 surrogate (not encodable as UTF-8). Checked once per
// operation over its variables and string literals, for GraphQL clients and the REST layers
// alike (both run through this server), as a 400 in each system's own error shape.
import type { ApolloServerPlugin } from "@apollo/server";
import { GraphQLError, visit, type DocumentNode } from "graphql";
import { ERROR_CODES } from "../lib/error-codes.ts";

// A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The path of the first string under `value` that cannot be stored, if any. */
function unstorable(value: unknown, path: string): string | undefined {
  if (typeof value === "string") return UNSTORABLE.test(value) ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorable(value[i], `${path}[${i}]`);
      if (found) return found;
    }
  } else if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      const found = unstorable(key, path) ?? unstorable(inner, path ? `${path}.${key}` : key);
      if (found) return found;
    }
  }
  return undefined;
}

/** Per parsed document (Apollo Server reuses one object for the same query text). */
const literalsChecked = new WeakMap<DocumentNode, boolean>();

function literalUnstorable(document: DocumentNode): boolean {
  let found = literalsChecked.get(document);
  if (found !== undefined) return found;
  found = false;
  visit(document, { StringValue: (node) => { if (UNSTORABLE.test(node.value)) found = true; } });
  literalsChecked.set(document, found);
  return found;
}

export const textInputGuard: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async didResolveOperation({ request, document }) {
        const where = unstorable(request.variables ?? {}, "") ?? (literalUnstorable(document) ? "a string literal" : undefined);
        if (where === undefined) return;
        const { status, message } = ERROR_CODES.invalid_text;
        throw new GraphQLError(`${message} (${where})`, { extensions: { code: "invalid_text", status, http: { status } } });
      },
    };
  },
};
