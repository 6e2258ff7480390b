// What clients see of errors: their own mistakes in full, the inside of the deployment never.
import { describe, expect, test } from "vitest";
import { publicError } from "../../router/observability/public-errors.ts";

describe("public GraphQL errors", () => {
  test("a bug's text (a Prisma invocation with source paths) becomes the code and a safe message", () => {
    const leaked = publicError({
      message: "\nInvalid `prisma.post.findMany()` invocation in\n/work/main/subgraphs/content/posts/post-query.ts:42:7\n\n→ 42 const rows = await tx.post.findMany(",
      path: ["posts"], extensions: { code: "INTERNAL_SERVER_ERROR", serviceName: "content" },
    });
    expect(leaked).toEqual({ message: "An internal error occurred.", path: ["posts"], extensions: { code: "INTERNAL_SERVER_ERROR", status: 500 } });
  });

  test("a failed fetch names no internal address", () => {
    const down = publicError({ message: "request to http://127.0.0.1:4001/graphql failed, reason: connect ECONNREFUSED", extensions: { code: "INTERNAL_SERVER_ERROR" } });
    expect(down.extensions).toEqual({ code: "SERVICE_UNAVAILABLE", status: 503 });
    expect(JSON.stringify(down)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
  });

  test("a domain error and a client's invalid document keep their messages; serviceName goes", () => {
    const domain = publicError({ message: "Invalid post ID.", extensions: { code: "rest_post_invalid_id", status: 404, serviceName: "content" } });
    expect(domain).toEqual({ message: "Invalid post ID.", extensions: { code: "rest_post_invalid_id", status: 404 } });
    const invalid = publicError({ message: 'Cannot query field "nope" on type "Query".', extensions: { code: "GRAPHQL_VALIDATION_FAILED" } });
    expect(invalid.message).toBe('Cannot query field "nope" on type "Query".');
  });
});
