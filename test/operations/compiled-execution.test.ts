// lib/compiled-execution.ts: a subgraph runs an operation on graphql-js the first time and compiled
// (graphql-jit) from the second; a caller must not be able to tell which. Each case runs the same
// operation three times through Apollo Server, in process, and expects the same answer every time
// (the first case's variables reach a field graphql-jit would get wrong, so it stays on graphql-js).
import { ApolloServer } from "@apollo/server";
import { buildSubgraphSchema } from "@apollo/subgraph";
import { parse } from "graphql";
import { describe, expect, it } from "vitest";
import { compiledExecution } from "../../lib/compiled-execution.ts";

const typeDefs = parse(`
  enum Status { PUBLISH DRAFT }
  input Filter { status: Status, quarantined: Boolean! = false, limit: Int }
  type Item { id: ID! name: String! status: Status! quarantined: Boolean! }
  type Query {
    items(filter: Filter!): [Item!]!
    byStatus(status: Status!, limit: Int = 2): [Item!]!
    fragile: [Item]
  }
`);

const stored = [
  { id: 1, name: "one", status: "publish", quarantined: false },
  { id: 2, name: "two", status: "draft", quarantined: true },
  { id: 3, name: "three", status: "publish", quarantined: true },
];

const resolvers = {
  // Internal values, as our subgraphs map enums to the database's strings.
  Status: { PUBLISH: "publish", DRAFT: "draft" },
  Query: {
    items: (_: unknown, { filter }: { filter: { status: string; quarantined: boolean; limit?: number } }) =>
      stored.filter((i) => (filter.status ?? i.status) === i.status && i.quarantined === filter.quarantined).slice(0, filter.limit ?? 10),
    byStatus: (_: unknown, { status, limit }: { status: string; limit: number }) => stored.filter((i) => i.status === status).slice(0, limit),
    fragile: () => [
      stored[0],
      { ...stored[1], name: null },
      { get name(): string { throw new Error("name unavailable"); }, id: 3, status: "publish", quarantined: true },
    ],
  },
};

async function threeRuns(query: string, variables?: Record<string, unknown>) {
  const server = new ApolloServer({ gateway: compiledExecution(buildSubgraphSchema({ typeDefs, resolvers: resolvers as never })), includeStacktraceInErrorResponses: false });
  await server.start();
  try {
    const answers = [];
    for (let run = 0; run < 3; run++) {
      const response = await server.executeOperation({ query, variables });
      if (response.body.kind !== "single") throw new Error("expected a single result");
      answers.push(response.body.singleResult);
    }
    return answers;
  } finally {
    await server.stop();
  }
}

describe("compiled execution answers as graphql-js does", () => {
  it("applies the defaults of required input fields a variable leaves out", async () => {
    const answers = await threeRuns("query($filter: Filter!) { items(filter: $filter) { id status quarantined } }", { filter: { limit: 1 } });
    for (const answer of answers) {
      expect(answer.errors).toBeUndefined();
      expect(answer.data).toEqual({ items: [{ id: "1", status: "PUBLISH", quarantined: false }] });
    }
  });

  it("applies an argument's default", async () => {
    const answers = await threeRuns("query($status: Status!) { byStatus(status: $status) { id } }", { status: "PUBLISH" });
    for (const answer of answers) expect(answer).toEqual({ data: { byStatus: [{ id: "1" }, { id: "3" }] } });
  });

  it("coerces enum variables to their internal values and back", async () => {
    const answers = await threeRuns("query($status: Status!) { byStatus(status: $status) { id name status } }", { status: "DRAFT" });
    for (const answer of answers) expect(answer).toEqual({ data: { byStatus: [{ id: "2", name: "two", status: "DRAFT" }] } });
  });

  it("refuses a bad variable with graphql-js's message", async () => {
    const answers = await threeRuns("query($status: Status!) { byStatus(status: $status) { id } }", { status: "GONE" });
    for (const answer of answers) {
      expect(answer.data).toBeUndefined();
      expect(answer.errors?.map((e) => e.message)).toEqual([`Variable "$status" got invalid value "GONE"; Value "GONE" does not exist in "Status" enum.`]);
    }
  });

  it("nulls what failed, with each error at its path", async () => {
    const answers = await threeRuns("{ fragile { id name } }");
    for (const answer of answers) {
      expect(answer.data).toEqual({ fragile: [{ id: "1", name: "one" }, null, null] });
      expect(answer.errors?.map((e) => [e.message, e.path])).toEqual([
        ["Cannot return null for non-nullable field Item.name.", ["fragile", 1, "name"]],
        ["name unavailable", ["fragile", 2, "name"]],
      ]);
    }
  });
});
