// Description coverage of the public GraphQL API (issue 7): every type, field, argument and enum
// value a client can see should say what it is. The composed API schema is measured as a whole
// (the figures are printed) and must be fully described.
import { Kind, isEnumType, isInputObjectType, isInterfaceType, isObjectType, isSpecifiedScalarType, type DocumentNode, type GraphQLSchema } from "graphql";
import { describe, expect, test } from "vitest";
import { composeApiSchema } from "../../router/compose.ts";
import { SUBGRAPH_SCHEMAS, typeDefsOf } from "../../subgraphs/schemas.ts";

type Kind4 = "types" | "fields" | "args" | "enumValues";
interface Element { kind: Kind4; path: string; described: boolean }

/** Every element of the schema a client sees (introspection and built-in scalars left out). */
export function elementsOf(schema: GraphQLSchema): Element[] {
  const out: Element[] = [];
  const has = (d: string | null | undefined) => typeof d === "string" && d.trim().length > 0;
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith("__") || isSpecifiedScalarType(type)) continue;
    out.push({ kind: "types", path: type.name, described: has(type.description) });
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        out.push({ kind: "fields", path: `${type.name}.${field.name}`, described: has(field.description) });
        for (const arg of field.args) out.push({ kind: "args", path: `${type.name}.${field.name}(${arg.name})`, described: has(arg.description) });
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) out.push({ kind: "fields", path: `${type.name}.${field.name}`, described: has(field.description) });
    } else if (isEnumType(type)) {
      for (const value of type.getValues()) out.push({ kind: "enumValues", path: `${type.name}.${value.name}`, described: has(value.description) });
    }
  }
  return out;
}

/** The paths a subgraph's SDL declares: its types (not extensions), fields, arguments and enum values. */
export function declaredBy(doc: DocumentNode): Set<string> {
  const paths = new Set<string>();
  for (const def of doc.definitions) {
    if (!("name" in def) || !def.name) continue;
    const name = def.name.value;
    if (def.kind === Kind.OBJECT_TYPE_DEFINITION || def.kind === Kind.INTERFACE_TYPE_DEFINITION || def.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION
      || def.kind === Kind.ENUM_TYPE_DEFINITION || def.kind === Kind.SCALAR_TYPE_DEFINITION || def.kind === Kind.UNION_TYPE_DEFINITION) paths.add(name);
    if ("fields" in def && def.fields) {
      for (const field of def.fields) {
        paths.add(`${name}.${field.name.value}`);
        if ("arguments" in field) for (const arg of field.arguments ?? []) paths.add(`${name}.${field.name.value}(${arg.name.value})`);
      }
    }
    if ("values" in def && def.values) for (const value of def.values) paths.add(`${name}.${value.name.value}`);
  }
  return paths;
}

/** Described / all, per kind, as "n/m (p %)". */
export function figures(elements: Element[]): Record<Kind4, string> {
  const kinds: Kind4[] = ["types", "fields", "args", "enumValues"];
  return Object.fromEntries(kinds.map((kind) => {
    const all = elements.filter((e) => e.kind === kind);
    const described = all.filter((e) => e.described).length;
    return [kind, `${described}/${all.length} (${all.length ? ((100 * described) / all.length).toFixed(1) : "100.0"} %)`];
  })) as Record<Kind4, string>;
}

describe("description coverage of the composed API schema", () => {
  const schema = composeApiSchema(SUBGRAPH_SCHEMAS.map((s) => ({ ...s, url: "http://unused/graphql" })));
  const elements = elementsOf(schema);
  const content = declaredBy(typeDefsOf("content"));

  test("prints the overall figures and those of each subgraph's own elements", () => {
    const overall = figures(elements);
    const bySubgraph = Object.fromEntries(SUBGRAPH_SCHEMAS.map((s) => {
      const own = declaredBy(s.typeDefs);
      return [s.name, figures(elements.filter((e) => own.has(e.path)))];
    }));
    console.log("API schema description coverage", JSON.stringify({ overall, ...bySubgraph }, null, 2));
    expect(elements.length).toBeGreaterThan(1000);
  });

  test("every type, field, argument and enum value the content subgraph declares is described (shared roots included)", () => {
    const owned = elements.filter((e) => content.has(e.path));
    expect(owned.length).toBeGreaterThan(900);
    expect(owned.filter((e) => !e.described).map((e) => e.path)).toEqual([]);
  });

  test("every type, field, argument and enum value of the whole API is described", () => {
    expect(elements.filter((e) => !e.described).map((e) => e.path)).toEqual([]);
  });

  test("the measure fails an undescribed element (the check above can fail)", () => {
    const bare = composeApiSchema([{ name: "bare", url: "http://unused/graphql", typeDefs: typeDefsOf("content") }]);
    const q = bare.getQueryType()!.getFields().posts;
    const before = elementsOf(bare).find((e) => e.path === "Query.posts")!.described;
    q.description = "";
    expect(before).toBe(true);
    expect(elementsOf(bare).find((e) => e.path === "Query.posts")!.described).toBe(false);
  });
});
