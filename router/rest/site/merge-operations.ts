// Several single-field operations as one GraphQL document: each root field aliased r0, r1…, its
// variables and fragments renamed likewise. batch/v1 and `_embed` run their sub-requests this
// way, so each subgraph sees one request and its DataLoaders coalesce the reads.
import {
  Kind, visit, type DefinitionNode, type DocumentNode, type FieldNode, type FragmentDefinitionNode,
  type OperationDefinitionNode, type OperationTypeNode, type VariableDefinitionNode,
} from "graphql";

export interface OperationCall { operation: DocumentNode; variables: Record<string, unknown> }

export const aliasOf = (index: number) => `r${index}`;

export function mergeOperations(calls: OperationCall[], kind: "query" | "mutation"): { document: DocumentNode; variables: Record<string, unknown> } {
  const variableDefinitions: VariableDefinitionNode[] = [];
  const selections: FieldNode[] = [];
  const fragments: FragmentDefinitionNode[] = [];
  const variables: Record<string, unknown> = {};
  calls.forEach(({ operation, variables: values }, i) => {
    const prefix = `${aliasOf(i)}_`;
    const renamed = visit(operation, {
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
    for (const [key, value] of Object.entries(values)) variables[prefix + key] = value;
  });
  const operation: OperationDefinitionNode = {
    kind: Kind.OPERATION_DEFINITION, operation: kind as OperationTypeNode,
    name: { kind: Kind.NAME, value: kind === "mutation" ? "Batch" : "Embed" }, variableDefinitions, directives: [],
    selectionSet: { kind: Kind.SELECTION_SET, selections },
  };
  return { document: { kind: Kind.DOCUMENT, definitions: [operation, ...fragments] }, variables };
}
