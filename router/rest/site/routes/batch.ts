// POST /batch/v1: every sub-request is matched and validated like a normal request, then all
// of them run as ONE GraphQL document (one aliased field each), so each subgraph sees one
// request per query-plan step and its DataLoaders coalesce the reads (ARCHITECTURE principle 3).
import {
  Kind, visit, type DefinitionNode, type DocumentNode, type FieldNode, type FragmentDefinitionNode,
  type OperationDefinitionNode, type VariableDefinitionNode,
} from "graphql";
import { gql } from "../../table.ts";
import { isLocal, rootField, type LocalEndpoint, type Prepared } from "../dispatch.ts";
import { wpError } from "../errors.ts";
import { applyFields, fieldList } from "../globals.ts";
import type { RestResult, SiteRoute } from "../route.ts";
import qs from "qs";

export const MAX_BATCH = 25;

/** Several single-field operations as one document: fields aliased r0, r1…, variables prefixed likewise. */
export function mergeOperations(items: { operation: DocumentNode; variables: Record<string, unknown> }[]): { document: DocumentNode; variables: Record<string, unknown> } {
  const variableDefinitions: VariableDefinitionNode[] = [];
  const selections: FieldNode[] = [];
  const fragments = new Map<string, FragmentDefinitionNode>();
  const variables: Record<string, unknown> = {};
  items.forEach(({ operation, variables: vars }, i) => {
    const prefix = `r${i}_`;
    const renamed = visit(operation, {
      Variable: (node) => ({ ...node, name: { ...node.name, value: prefix + node.name.value } }),
    });
    for (const definition of renamed.definitions as DefinitionNode[]) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) {
        // Fragments may use operation variables, so each item keeps its own renamed copy.
        const name = `${definition.name.value}_${i}`;
        fragments.set(name, { ...definition, name: { ...definition.name, value: name } });
      } else if (definition.kind === Kind.OPERATION_DEFINITION) {
        variableDefinitions.push(...(definition.variableDefinitions ?? []));
        const field = definition.selectionSet.selections[0] as FieldNode;
        const withFragments = visit(field, { FragmentSpread: (node) => ({ ...node, name: { ...node.name, value: `${node.name.value}_${i}` } }) });
        selections.push({ ...withFragments, alias: { kind: Kind.NAME, value: `r${i}` } });
      }
    }
    for (const [key, value] of Object.entries(vars)) variables[prefix + key] = value;
  });
  const operation: OperationDefinitionNode = {
    kind: Kind.OPERATION_DEFINITION, operation: "mutation" as OperationDefinitionNode["operation"],
    name: { kind: Kind.NAME, value: "Batch" }, variableDefinitions, directives: [],
    selectionSet: { kind: Kind.SELECTION_SET, selections },
  };
  return { document: { kind: Kind.DOCUMENT, definitions: [operation, ...fragments.values()] }, variables };
}

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
  operation: gql`mutation BatchPlaceholder { __typename }`,
  respond: () => ({ body: null }),
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

    // One document for every item that runs an operation; items run in order, as WordPress runs them.
    const runnable = prepared.map((p, i) => ({ p, i })).filter((x): x is { p: Prepared; i: number } => !("error" in x.p) && !isLocal(x.p.endpoint));
    const merged = mergeOperations(runnable.map(({ p }) => ({ operation: p.endpoint.operation, variables: p.endpoint.variables?.(p.request) ?? {} })));
    const result = runnable.length ? await site.execute(merged.document, merged.variables, context) : { data: {}, errors: [] };

    const responses = await Promise.all(prepared.map(async (p, i) => {
      const allow = p.route ? site.allow(p.route, context) : undefined;
      if ("error" in p) return { body: p.error.body, status: p.error.status, headers: itemHeaders(p.error, allow) };
      let out: RestResult;
      if (isLocal(p.endpoint)) out = await site.run(p, context);
      else {
        const alias = `r${runnable.findIndex((r) => r.i === i)}`;
        const errors = (result.errors ?? []).filter((e) => e.path?.[0] === alias);
        const data = result.data ? { [rootField(p.endpoint)]: (result.data as Record<string, unknown>)[alias] } : null;
        out = site.shape(p.endpoint, p.request, data, errors);
      }
      const ok = (out.status ?? 200) < 400;
      const body = ok ? applyFields(out.body, fieldList(queries[i]._fields), true) : out.body;
      return { body, status: out.status ?? 200, headers: itemHeaders(out, allow) };
    }));
    return { status: 207, body: { responses } };
  },
};

export const batchRoutes: SiteRoute[] = [{ namespace: "", pattern: "/batch/v1", endpoints: [batch] }];
