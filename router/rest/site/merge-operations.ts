// Several single-field operations as one GraphQL document: each root field aliased r0, r1…, its
// variables and fragments renamed likewise. batch/v1 and `_embed` run their sub-requests this
// way, so each subgraph sees one request and its DataLoaders coalesce the reads.
// Mutations with a bulk form (createPost → createPosts, registered by batch/v1) go one step
// further: consecutive calls of one document become ONE field taking all their inputs, so the
// subgraph writes them in one transaction; `unmerge` puts each answer back under its own alias.
import {
  Kind, visit, type DefinitionNode, type DocumentNode, type FieldNode, type FormattedExecutionResult, type FragmentDefinitionNode,
  type GraphQLFormattedError, type OperationDefinitionNode, type OperationTypeNode, type VariableDefinitionNode,
} from "graphql";
import { LRUCache } from "lru-cache";

export interface OperationCall { operation: DocumentNode; variables: Record<string, unknown> }

export const aliasOf = (index: number) => `r${index}`;

/** Root mutation fields taking `input` → their bulk form taking `inputs` (a list, answered in order). */
const bulkFields = new Map<string, string>();

/** Declares that `bulk(inputs: [T!]!)` does what `single(input: T!)` does for each input, in order, answering a list. */
export function registerBulkMutation(single: string, bulk: string): void {
  bulkFields.set(single, bulk);
}

const operationOf = (document: DocumentNode) => document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;

/** The bulk form of a single-field mutation document: `single(input: $input)` → `bulk(inputs: $inputs)`, selection unchanged. */
const bulkDocuments = new WeakMap<DocumentNode, DocumentNode | null>();
function bulkDocumentOf(document: DocumentNode): DocumentNode | null {
  if (bulkDocuments.has(document)) return bulkDocuments.get(document)!;
  const operation = operationOf(document);
  const field = operation.selectionSet.selections[0];
  const bulk = operation.operation === "mutation" && field.kind === Kind.FIELD ? bulkFields.get(field.name.value) : undefined;
  const input = bulk && operation.variableDefinitions?.find((v) => v.variable.name.value === "input");
  const usesInput = field.kind === Kind.FIELD && field.arguments?.some((a) => a.name.value === "input" && a.value.kind === Kind.VARIABLE && a.value.name.value === "input");
  let result: DocumentNode | null = null;
  if (bulk && input && usesInput) {
    result = visit(document, {
      OperationDefinition: (node) => ({
        ...node,
        variableDefinitions: node.variableDefinitions?.map((v) => (v === input
          ? { ...v, variable: { ...v.variable, name: { ...v.variable.name, value: "inputs" } }, type: { kind: Kind.NON_NULL_TYPE, type: { kind: Kind.LIST_TYPE, type: v.type } } }
          : v)),
        selectionSet: {
          ...node.selectionSet,
          selections: [{
            ...(node.selectionSet.selections[0] as FieldNode),
            name: { kind: Kind.NAME, value: bulk },
            arguments: (node.selectionSet.selections[0] as FieldNode).arguments?.map((a) => (a.name.value === "input"
              ? { ...a, name: { ...a.name, value: "inputs" }, value: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: "inputs" } } }
              : a)),
          } as FieldNode],
        },
      }),
    }) as DocumentNode;
  }
  bulkDocuments.set(document, result);
  return result;
}

const sameButInput = (a: Record<string, unknown>, b: Record<string, unknown>) => {
  const { input: _a, ...restA } = a;
  const { input: _b, ...restB } = b;
  return JSON.stringify(restA) === JSON.stringify(restB);
};

/** Consecutive calls that one bulk field can answer: [first index, how many]. */
function runsOf(calls: OperationCall[], kind: "query" | "mutation"): [first: number, count: number][] {
  const runs: [number, number][] = [];
  for (let i = 0; i < calls.length;) {
    let n = 1;
    if (kind === "mutation" && bulkDocumentOf(calls[i].operation)) {
      while (i + n < calls.length && calls[i + n].operation === calls[i].operation && sameButInput(calls[i].variables, calls[i + n].variables)) n++;
    }
    runs.push([i, n]);
    i += n;
  }
  return runs;
}

export interface MergedOperation {
  document: DocumentNode;
  variables: Record<string, unknown>;
  /** The result as if every call had been its own aliased field (data under r0, r1…, errors pathed there). */
  unmerge: (result: FormattedExecutionResult) => FormattedExecutionResult;
}

export function mergeOperations(calls: OperationCall[], kind: "query" | "mutation"): MergedOperation {
  const variables: Record<string, unknown> = {};
  // A run of several calls is one bulk field, aliased as its first call.
  const runs = runsOf(calls, kind);
  for (const [i, count] of runs) {
    const { variables: values } = calls[i];
    const prefix = `${aliasOf(i)}_`;
    const { input: _input, ...shared } = values;
    for (const [key, value] of Object.entries(count > 1 ? shared : values)) variables[prefix + key] = value;
    if (count > 1) variables[`${prefix}inputs`] = calls.slice(i, i + count).map((c) => c.variables.input);
  }
  const bulkRuns = runs.filter(([, count]) => count > 1);
  return {
    document: mergedDocument(calls, runs, kind),
    variables,
    unmerge: (result) => (bulkRuns.length ? unmergeRuns(result, bulkRuns) : result),
  };
}

/**
 * The merged document depends only on which documents run in which order (and which run as one
 * bulk field): the same request shape gets the same DocumentNode, so it is built, printed and
 * validated once, not on every request (a REST read merges its operation with the route's probes).
 */
const documentIds = new WeakMap<DocumentNode, number>();
let lastDocumentId = 0;
const mergedDocuments = new LRUCache<string, DocumentNode>({ max: 1000 });
function mergedDocument(calls: OperationCall[], runs: [first: number, count: number][], kind: "query" | "mutation"): DocumentNode {
  const idOf = (document: DocumentNode) => {
    let id = documentIds.get(document);
    if (id === undefined) documentIds.set(document, (id = ++lastDocumentId));
    return id;
  };
  const key = `${kind}:${runs.map(([i, count]) => `${idOf(calls[i].operation)}x${count}`).join(",")}`;
  let document = mergedDocuments.get(key);
  if (!document) mergedDocuments.set(key, (document = buildMergedDocument(calls, runs, kind)));
  return document;
}

function buildMergedDocument(calls: OperationCall[], runs: [first: number, count: number][], kind: "query" | "mutation"): DocumentNode {
  const variableDefinitions: VariableDefinitionNode[] = [];
  const selections: FieldNode[] = [];
  const fragments: FragmentDefinitionNode[] = [];
  for (const [i, count] of runs) {
    const { operation } = calls[i];
    const prefix = `${aliasOf(i)}_`;
    const renamed = visit(count > 1 ? bulkDocumentOf(operation)! : operation, {
      Variable: (node) => ({ ...node, name: { ...node.name, value: prefix + node.name.value } }),
      // Fragments may use operation variables, so each call keeps its own renamed copy.
      FragmentSpread: (node) => ({ ...node, name: { ...node.name, value: prefix + node.name.value } }),
      FragmentDefinition: (node) => ({ ...node, name: { ...node.name, value: prefix + node.name.value } }),
    });
    for (const definition of renamed.definitions as DefinitionNode[]) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.push(definition);
      else if (definition.kind === Kind.OPERATION_DEFINITION) {
        variableDefinitions.push(...(definition.variableDefinitions ?? []));
        const field = definition.selectionSet.selections[0] as FieldNode;
        selections.push({ ...field, alias: { kind: Kind.NAME, value: aliasOf(i) } });
      }
    }
  }
  const operation: OperationDefinitionNode = {
    kind: Kind.OPERATION_DEFINITION, operation: kind as OperationTypeNode,
    name: { kind: Kind.NAME, value: kind === "mutation" ? "Batch" : "Embed" }, variableDefinitions, directives: [],
    selectionSet: { kind: Kind.SELECTION_SET, selections },
  };
  return { kind: Kind.DOCUMENT, definitions: [operation, ...fragments] };
}

/** A bulk field's list back under its calls' aliases; an error at item j goes to call j, one on the whole field to every call. */
function unmergeRuns(result: FormattedExecutionResult, runs: [number, number][]): FormattedExecutionResult {
  const data = result.data ? { ...result.data } : result.data;
  const errors: GraphQLFormattedError[] = [];
  for (const error of result.errors ?? []) {
    const run = runs.find(([first]) => error.path?.[0] === aliasOf(first));
    if (!run) { errors.push(error); continue; }
    const [first, count] = run;
    const item = error.path![1];
    if (typeof item === "number") errors.push({ ...error, path: [aliasOf(first + item), ...error.path!.slice(2)] });
    else for (let j = 0; j < count; j++) errors.push({ ...error, path: [aliasOf(first + j), ...error.path!.slice(1)] });
  }
  if (data) {
    for (const [first, count] of runs) {
      const list = data[aliasOf(first)] as unknown[] | null | undefined;
      for (let j = 0; j < count; j++) data[aliasOf(first + j)] = list ? list[j] ?? null : null;
    }
  }
  return { ...result, data, ...(result.errors ? { errors } : {}) };
}
