// POST /batch/v1: every sub-request is matched and validated like a normal request, then all
// of them run as ONE GraphQL document (one aliased field each), so each subgraph sees one
// request per query-plan step and its DataLoaders coalesce the reads (ARCHITECTURE principle 3);
// creates with a bulk form are written together (merge-operations.ts).
import type { Prepared } from "../../dispatch.ts";
import { wpError } from "../../errors.ts";
import { applyFields, fieldList } from "../../globals.ts";
import type { LocalEndpoint, RestResult, SiteRoute } from "../../route.ts";
import { registerBulkMutation } from "../../merge-operations.ts";
import qs from "qs";

// Consecutive creates of posts (or pages) in a batch are ONE write: the content subgraph's bulk
// form takes them all and writes them in one transaction with multi-row inserts.
registerBulkMutation("createPost", "createPosts");
registerBulkMutation("createPage", "createPages");
// Their languages (Polylang's lang/translations fields, written once the objects exist) likewise.
registerBulkMutation("setPostLanguage", "setPostLanguages");
registerBulkMutation("setPageLanguage", "setPageLanguages");

export const MAX_BATCH = 25;

const itemHeaders = (result: RestResult, allow?: string) => {
  const headers = { ...(allow !== undefined ? { Allow: allow } : {}), ...(result.headers ?? {}) };
  return Object.keys(headers).length ? headers : [];
};

const batch: LocalEndpoint = {
  methods: ["POST"],
  args: {
    validation: { type: "string", enum: ["require-all-validate", "normal"], default: "normal" },
    requests: {
      type: "array", maxItems: MAX_BATCH, required: true,
      items: {
        type: "object",
        properties: {
          method: { type: "string", enum: ["POST", "PUT", "PATCH", "DELETE"], default: "POST" },
          path: { type: "string", required: true },
          body: { type: "object", properties: {}, additionalProperties: true },
          headers: { type: "object", properties: {}, additionalProperties: { type: ["string", "array"], items: { type: "string" } } },
        },
      },
    },
  },
  handle: async (request, context, site) => {
    const requests = request.params.requests as { method?: string; path: string; body?: Record<string, unknown>; headers?: Record<string, string | string[]> }[];
    const prepared: (Prepared | { error: RestResult; route?: SiteRoute; query: Record<string, unknown> })[] = [];
    const queries: Record<string, unknown>[] = [];
    for (const item of requests) {
      const [path, search = ""] = item.path.split("#")[0].split("?", 2);
      const query = qs.parse(search) as Record<string, unknown>;
      queries.push(query);
      const outcome = site.prepare({ method: item.method ?? "POST", path, query, body: item.body ?? {}, headers: item.headers ?? {} }, context);
      if ("error" in outcome) { prepared.push({ ...outcome, query }); continue; }
      if (!outcome.endpoint.allowBatch) {
        prepared.push({ error: wpError("rest_batch_not_allowed", "The requested route does not support batch requests.", 400), route: outcome.route, query });
        continue;
      }
      prepared.push(outcome);
    }

    if (request.params.validation === "require-all-validate" && prepared.some((p) => "error" in p)) {
      return {
        status: 207,
        body: { failed: "validation", responses: prepared.map((p) => ("error" in p ? { body: p.error.body, status: p.error.status, headers: [] } : null)) },
      };
    }

    // Every item that validated runs in one GraphQL document, in order, as WordPress runs them one by one.
    const runnable = prepared.filter((p): p is Prepared => !("error" in p));
    const results = await site.runTogether(runnable, context, "mutation");
    const allows = await Promise.all(prepared.map((p) => (p.route ? site.allow(p.route, context) : undefined)));
    const responses = prepared.map((p, i) => {
      const allow = allows[i];
      if ("error" in p) return { body: p.error.body, status: p.error.status, headers: itemHeaders(p.error, allow) };
      const out = results[runnable.indexOf(p)];
      const ok = (out.status ?? 200) < 400;
      const body = ok ? applyFields(out.body, fieldList(queries[i]._fields), true) : out.body;
      return { body, status: out.status ?? 200, headers: itemHeaders(out, allow) };
    });
    return { status: 207, body: { responses } };
  },
};

export const batchRoutes: SiteRoute[] = [{ namespace: "", pattern: "/batch/v1", endpoints: [batch] }];
