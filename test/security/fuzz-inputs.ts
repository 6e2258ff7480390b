// Malformed requests generated from the route declarations: the site table's endpoints and their
// `args`, the /api/v2 table and its resources' filterable properties, and the GraphQL schema's
// root fields. Deterministic for a seed. Writes meant for the administrator are built so that
// they must be refused (a nonexistent path id, or an argument its own schema rejects), so the
// database stays as it was; anything merely odd-but-valid goes out anonymously.
import {
  coerceInputValue, getNamedType, getNullableType, isEnumType, isInputObjectType, isListType, isNonNullType, isObjectType, isScalarType,
  type GraphQLArgument, type GraphQLField, type GraphQLInputType, type GraphQLSchema,
} from "graphql";
import type { ArgSchema, JsonType, SiteRoute } from "../../router/rest/site/route.ts";
import type { GatewayRoute } from "../../router/rest/gateway/route.ts";
import { OPERATORS, type PropertyType } from "../../lib/gateway/collection-rules.ts";

export type FuzzSystem = "site" | "gateway" | "graphql";

export interface FuzzRequest {
  system: FuzzSystem;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** "admin": the site administrator's application password; "token": a valid gateway token. */
  auth?: "admin" | "token";
  /** What was made malformed, for the failure report. */
  label: string;
}

/** mulberry32: a tiny seeded PRNG, enough to spread cases reproducibly. */
export function prng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(items: readonly T[]): T => items[int(items.length)], chance: (p: number) => next() < p };
}

export interface Rng { next(): number; int(n: number): number; pick<T>(items: readonly T[]): T; chance(p: number): boolean }

// Values every system must survive. Huge and negative numbers, text a database cannot store,
// long strings, unexpected shapes.
const HUGE_NUMBERS = [2 ** 31, 2 ** 31 - 1 + 2, 2 ** 53, 2 ** 53 + 2, -1, -(2 ** 31) - 1, 1e308, -0.5, 1.5];
const HUGE_NUMBER_TEXT = ["2147483648", "9007199254740993", "-1", "99999999999999999999", "1e309", "-9223372036854775809", "0x10", "NaN", "Infinity", " 1", "1 "];
const NASTY_TEXT = ["a\u0000b", "\u0000", "x\ud800y", "\udc00", "\ud83d", "%00", "' OR 1=1 --", "\\", "{\"a\":", "<script>", "\u202e", "😀", ""];
const longText = (rng: Rng) => "x".repeat(rng.pick([300, 4_096, 20_000]));
const SHAPES: unknown[] = [[], [1, 2], [[[]]], {}, { a: { b: { c: 1 } } }, null, true, false, [null], { "": "" }, [{ id: 1 }]];

/** Anything at all: the mix the fuzz draws from when a value only has to be odd. */
function oddValue(rng: Rng): unknown {
  switch (rng.int(5)) {
    case 0: return rng.pick(HUGE_NUMBERS);
    case 1: return rng.pick(HUGE_NUMBER_TEXT);
    case 2: return rng.pick(NASTY_TEXT);
    case 3: return longText(rng);
    default: return rng.pick(SHAPES);
  }
}

const types = (schema: ArgSchema): JsonType[] => (schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type]);

/**
 * A value the argument's own schema rejects, or undefined when the schema accepts anything (no
 * type, skipped validation) and only unstorable text is sure to be refused.
 */
export function violatingValue(schema: ArgSchema, rng: Rng): unknown {
  if (schema.skipValidation || schema.validate || schema.sanitize) return rng.pick(["a\u0000b", "x\ud800y", "\udc00z"]);
  const t = types(schema);
  if (schema.enum) return rng.pick(["not-a-choice-\u00e9", "zz", { a: 1 }]);
  if (t.length === 0 || t.includes("string") && t.includes("object")) return rng.pick(["a\u0000b", "x\ud800y"]);
  // A formatted string is sanitized (esc_url_raw drops a NUL), so only a wrong type is sure to fail.
  if (schema.format && t.includes("string")) return rng.pick([{ s: "x" }, [1, 2]]);
  const kinds: unknown[] = [];
  if (t.includes("integer") || t.includes("number")) {
    kinds.push("twelve", { n: 1 }, [[1]], "1e309x");
    if (t.includes("integer") && !t.includes("number")) kinds.push(1.5, "2.5");
    if (schema.minimum !== undefined) kinds.push(schema.minimum - 2 ** 40);
    if (schema.maximum !== undefined) kinds.push(schema.maximum + 2 ** 40);
  } else if (t.includes("boolean")) kinds.push("maybe", 7, { b: true });
  else if (t.includes("array")) {
    const itemTypes = schema.items ? types(schema.items) : [];
    if (itemTypes.includes("integer")) kinds.push(["x"], [{ a: 1 }], [1.5]);
    else if (schema.items?.enum) kinds.push(["not-a-choice"]);
    else if (itemTypes.includes("string")) kinds.push([{ a: 1 }], [[1]]);
    else return rng.pick(["a\u0000b", ["x\ud800y"]]);
  } else if (t.includes("object")) kinds.push(5, "str"); // a PHP list is an object to WordPress
  else if (t.includes("string")) kinds.push({ s: "x" }, [1, 2], "a\u0000b", "x\ud800y");
  if (t.includes("null")) return rng.pick(kinds.filter((k) => k !== null)) ?? "a\u0000b";
  return rng.pick(kinds);
}

const NONEXISTENT_IDS = ["99999999999", "2147483648", "2147483647", "9007199254740993", "18446744073709551616", "0", "00000000000000000000099"];

/** A concrete path from a WordPress pattern: each named group filled with `fill(name, group regex)`. */
function expand(pattern: string, fill: (name: string, regex: string) => string): string {
  return pattern
    .replace(/\(\?P<(\w+)>((?:[^()]|\((?:[^()])*\))*)\)/g, (_m, name: string, regex: string) => fill(name, regex))
    .replace(/\\(.)/g, "$1").replace(/\/\?$/, "/");
}

const numericGroup = (regex: string) => regex.includes("\\d") && !regex.includes("me");

/** Query-string text of a JSON-ish value, WordPress style (arrays as name[]=…, objects as name[key]=…). */
function toQuery(name: string, value: unknown, out: URLSearchParams): void {
  if (Array.isArray(value)) value.forEach((v) => toQuery(`${name}[]`, v, out));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) toQuery(`${name}[${k}]`, v, out);
  // Capped so the URL fits Node's 16 KB header limit (past it, the HTTP layer answers 431 before any route).
  else out.append(name, value === null ? "" : String(value).slice(0, 4_000));
}

const BAD_BODIES: [string, string][] = [
  ["application/json", "{\"title\":"],
  ["application/json", "[1,2,3]"],
  ["application/json", "\"just a string\""],
  ["application/json", "null"],
  ["application/json", "{\"a\":1}{\"b\":2}"],
  ["application/json", "\u0000"],
  ["application/json", `${"[".repeat(5000)}${"]".repeat(5000)}`],
  ["application/json", `{"x":${"{\"x\":".repeat(2000)}1${"}".repeat(2000)}}`],
  ["application/json; charset=utf-16", "{}"],
  ["text/plain", "{\"title\":\"t\"}"],
  ["application/x-www-form-urlencoded", "title=%00&status[]=x&=&&%zz"],
  ["multipart/form-data", "--x\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nbroken"],
  ["multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\n\r\nnot a png\r\n--"],
  ["application/xml", "<a/>"],
  ["", "{}"],
];

/** Site REST requests, spread over every endpoint of the route table. */
export function siteRequests(routes: SiteRoute[], rng: Rng, count: number, restRoot = "/wp-json"): FuzzRequest[] {
  const endpoints = routes.flatMap((route) => route.endpoints.flatMap((endpoint) => endpoint.methods.map((method) => ({ route, endpoint, method }))));
  const out: FuzzRequest[] = [];
  for (let i = 0; i < count; i++) {
    const { route, endpoint, method } = endpoints[i % endpoints.length];
    const write = method !== "GET";
    const args = Object.entries(endpoint.args);
    const pathArgs = new Set([...route.pattern.matchAll(/\(\?P<(\w+)>/g)].map((m) => m[1]));
    const bodyArgs = args.filter(([name]) => !pathArgs.has(name));
    const hasPathId = route.pattern.includes("(?P<");
    // Who asks: reads either; writes as the administrator only when sure to be refused.
    const kind = rng.int(7);
    let admin = !write ? rng.chance(0.5) : false;
    let badPathId = false;
    const params: Record<string, unknown> = {};
    let label = "";
    let contentType = "application/json";
    let rawBody: string | undefined;
    if (kind === 0 && hasPathId) {
      badPathId = true;
      admin = rng.chance(0.7);
      label = "nonexistent path id";
    } else if (kind === 1 && bodyArgs.length > 0) {
      // One argument its own schema rejects: refused for anyone, so writes go as the administrator.
      const [name, schema] = rng.pick(bodyArgs);
      params[name] = violatingValue(schema, rng);
      admin = true;
      label = `${name} violates its schema`;
    } else if (kind === 2 && bodyArgs.length > 0) {
      // Several arguments, each odd: anonymous for writes (may be schema-valid), mixed for reads.
      for (let k = 0; k < 1 + rng.int(3); k++) {
        const [name] = rng.pick(bodyArgs);
        params[name] = oddValue(rng);
      }
      label = `odd ${Object.keys(params).join(",")}`;
    } else if (kind === 3 && write) {
      [contentType, rawBody] = rng.pick(BAD_BODIES);
      label = `bad body (${contentType || "no content type"})`;
      // The body may be ignored (WordPress reads no text/plain body): only refused for sure on a missing item.
      if (hasPathId) { badPathId = true; admin = rng.chance(0.5); }
    } else if (kind === 4) {
      // A method or route override would turn a refused write into another one: reads only.
      const overrides: [string, unknown][] = write ? [] : [["_method", "DELETE"], ["rest_route", "/core/v2/posts"]];
      const junk = rng.pick<[string, unknown]>([["_fields", { a: [1] }], ["_embed", "\u0000"], ["_envelope", [[1]]], ["context", longText(rng)], ["page", 2 ** 53], ["per_page", "1e309"], ["offset", -1], ["_jsonp", "alert(1)"], ...overrides]);
      params[junk[0]] = junk[1];
      label = `global ${junk[0]}`;
      if (junk[0] === "_method") admin = false;
      if (write && bodyArgs.length > 0) {
        const [name, schema] = rng.pick(bodyArgs);
        params[name] = violatingValue(schema, rng);
        admin = true;
        label += ` + ${name} violates its schema`;
      }
    } else if (kind === 6 && write && method !== "DELETE" && /\(\?P<id>\[\\d\]\+\)$/.test(route.pattern) && !route.pattern.includes("settings")) {
      // An existing item's integer field beyond int4, as the administrator: only the domain can
      // refuse it (it passes the schema), and it must refuse it as a 4xx, not fail in the database.
      const ints = bodyArgs.filter(([, schema]) => types(schema).includes("integer") || (schema.items && types(schema.items).includes("integer")));
      if (ints.length > 0) {
        const [name, schema] = rng.pick(ints);
        const huge = rng.pick([2 ** 31, 2 ** 53, -(2 ** 31) - 1]);
        params[name] = types(schema).includes("array") ? [huge] : huge;
        admin = true;
        label = `${name} beyond int4 violates the domain`;
      } else label = "no integer argument";
    } else {
      // Huge and negative integers into every integer argument the endpoint has.
      for (const [name, schema] of bodyArgs) {
        if (types(schema).includes("integer")) params[name] = rng.pick([2 ** 31, 2 ** 53, -1, -(2 ** 31) - 1, "99999999999"]);
      }
      label = `huge integers ${Object.keys(params).join(",") || "(none)"}`;
      if (write) admin = false;
    }
    const path = expand(route.pattern, (name, regex) => {
      if (badPathId && numericGroup(regex)) return rng.pick(NONEXISTENT_IDS);
      if (regex.includes("me")) return badPathId ? rng.pick(NONEXISTENT_IDS) : rng.pick(["me", "1"]);
      if (numericGroup(regex)) return rng.pick(["1", "2", "3"]);
      if (name === "uuid") return badPathId ? "00000000-0000-4000-8000-000000000000" : rng.pick(["nope", "x".repeat(400)]);
      return rng.pick(["post", "en", "publish", "category", "zz_ZZ", "x".repeat(2_000), "no-such-thing"]);
    });
    // A write whose path id is not numeric-by-pattern and still exists must not go as admin.
    if (write && admin && !label.includes("violates") && !(badPathId && /\(\?P<\w+>[^)]*\\d/.test(route.pattern))) admin = false;
    const headers: Record<string, string> = {};
    let body: string | undefined;
    let query = "";
    if (rawBody !== undefined) {
      body = rawBody;
      if (contentType) headers["content-type"] = contentType;
    } else if (write && (admin || rng.chance(0.7))) {
      // JSON, where a lone surrogate survives (a query string turns it into U+FFFD, valid text).
      body = JSON.stringify(params);
      headers["content-type"] = "application/json";
    } else {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(params)) toQuery(k, v, q);
      query = q.toString();
    }
    const base = rng.chance(0.15) ? `/?rest_route=${encodeURIComponent(path)}` : `${restRoot}${path}`;
    const url = query ? `${base}${base.includes("?") ? "&" : "?"}${query}` : base;
    out.push({ system: "site", method, path: url, headers, body, auth: admin ? "admin" : undefined, label: `${method} ${route.pattern}: ${label}` });
  }
  return out;
}

/** A batch/v1 request whose sub-requests carry the malformed arguments (anonymous: each item may be valid). */
export function batchRequests(rng: Rng, count: number, sample: FuzzRequest[]): FuzzRequest[] {
  const out: FuzzRequest[] = [];
  for (let i = 0; i < count; i++) {
    const items = Array.from({ length: 1 + rng.int(4) }, () => {
      const r = rng.pick(sample);
      const path = r.path.replace(/^\/wp-json/, "").replace(/^\/\?rest_route=/, "");
      return rng.chance(0.2) ? oddValue(rng) : { method: r.method, path: rng.chance(0.1) ? oddValue(rng) : decodeURIComponent(path.split("?")[0]), body: r.body && r.body.length < 2_000 ? safeParse(r.body) : rng.pick(SHAPES) };
    });
    const admin = rng.chance(0.3);
    // As the administrator only top-level shapes the batch schema refuses.
    const requests = admin ? rng.pick<unknown>(["x", 5, { a: 1 }, [1, "x"], Array.from({ length: 30 }, () => ({ path: "/core/v2/posts" }))]) : items;
    const validation = rng.chance(0.2) ? rng.pick(["require-all-validate", "nope", 5]) : undefined;
    out.push({
      system: "site", method: "POST", path: "/wp-json/batch/v1", headers: { "content-type": "application/json" },
      body: JSON.stringify({ requests, ...(validation !== undefined ? { validation } : {}) }),
      auth: admin ? "admin" : undefined, label: `batch/v1 (${admin ? "bad requests" : `${Array.isArray(items) ? items.length : 0} items`})`,
    });
  }
  return out;
}

function safeParse(text: string): unknown {
  try { return JSON.parse(text); } catch { return text; }
}

const GATEWAY_BAD_TOKENS = ["", "x", "Bearer abc", "%00", "a".repeat(5_000), "00000000-0000-0000-0000-000000000000", "' OR 1=1 --"];

/** A malformed value for a property type's filter, or a malformed operator. */
function badFilter(type: PropertyType, rng: Rng): [string, string] {
  const ops = OPERATORS[type] as readonly string[];
  switch (rng.int(7)) {
    case 0: return [rng.pick(["like", "regex", "", "eq][", "gt]", "EQ", "in][0"]), "1"];
    case 1: return [rng.pick(ops), rng.pick(HUGE_NUMBER_TEXT)];
    case 2: return [rng.pick(ops), rng.pick(NASTY_TEXT.filter((t) => !/[\ud800-\udfff]/.test(t)))];
    case 3: return [rng.pick(ops), "x".repeat(rng.pick([255, 300, 10_000]))];
    case 4: return ["in", Array.from({ length: rng.pick([2, 101, 500]) }, (_, k) => rng.chance(0.5) ? String(2 ** 31 + k) : `v${k}`).join(",")];
    case 5: return [rng.pick(ops), rng.pick(["2024-13-45", "2024-01-01T25:00:00Z", "0000-00-00", "9999999-01-01", "2024-01-01T00:00:00", "-1"])];
    default: return [rng.pick(ops), ""];
  }
}

/** /api/v2 requests: bad tokens, bad filters, paging and order, bad ids and bad login bodies. */
export function gatewayRequests(routes: GatewayRoute[], rng: Rng, count: number): FuzzRequest[] {
  const endpoints = routes.flatMap((route) => route.endpoints.flatMap((endpoint) => endpoint.methods.map((method) => ({ route, endpoint, method }))));
  const out: FuzzRequest[] = [];
  for (let i = 0; i < count; i++) {
    const { route, endpoint, method } = endpoints[i % endpoints.length];
    const headers: Record<string, string> = { accept: rng.pick(["application/ld+json", "application/hal+json", "application/json", "*/*", "text/html", "application/ld+json;q=x"]) };
    let auth: FuzzRequest["auth"];
    let label = "";
    // Logging out with the valid token would revoke it: only bad tokens there.
    const mayUseToken = endpoint.auth && route.path !== "/logout";
    if (endpoint.auth && (!mayUseToken || rng.chance(0.25))) {
      headers["x-esg-auth-token"] = rng.pick(GATEWAY_BAD_TOKENS);
      label = "bad token";
    } else if (mayUseToken) auth = "token";
    const query = new URLSearchParams();
    let body: string | undefined;
    const properties = endpoint.resource && route.path.endsWith("accounted-email") ? Object.entries(endpoint.resource.properties) : [];
    for (let k = 0; k < (properties.length > 0 ? 1 + rng.int(3) : 0); k++) {
      const [name, property] = rng.pick(properties) as [string, { type: PropertyType }];
      switch (rng.int(4)) {
        case 0: { const [op, value] = badFilter(property.type, rng); query.append(op === "" ? name : `${name}[${op}]`, value); break; }
        case 1: query.append(`order[${rng.chance(0.8) ? name : "nope"}]`, rng.pick(["sideways", "", "ASC", "\u0000", "desc"])); break;
        case 2: query.append(rng.pick(["page", "itemsPerPage"]), rng.pick([...HUGE_NUMBER_TEXT, "0", "abc", ""])); break;
        default: query.append(rng.pick([`${name}[]`, `${name}[eq][x]`, `${name}[[`, "unknown[eq]", name]), rng.pick(["1", "\u0000", "x".repeat(300)]));
      }
    }
    const fill = (regex: string) => (regex.includes("\\d") ? rng.pick([...NONEXISTENT_IDS, "1"]) : rng.pick(["Entrypoint", "Nope", "x".repeat(500), "%00"]));
    const path = expand(route.pattern, (_n, regex) => fill(regex));
    if (endpoint.body) {
      const [type, text] = rng.pick<[string, string]>([
        ...BAD_BODIES,
        ["application/json", JSON.stringify({ username: rng.pick(NASTY_TEXT), password: "x" })],
        ["application/json", JSON.stringify({ username: rng.pick(SHAPES), password: rng.pick(SHAPES) })],
        ["application/json", JSON.stringify({ username: "x".repeat(10_000), password: "y".repeat(10_000) })],
        ["application/json", JSON.stringify({ username: 2 ** 53, password: 2 ** 31 })],
      ]);
      if (type) headers["content-type"] = type;
      body = text;
      label += ` bad body (${type})`;
    }
    const qs = query.toString();
    out.push({ system: "gateway", method, path: `${path}${qs ? `?${qs}` : ""}`, headers, body, auth, label: `${method} ${route.path}:${label} ${qs.slice(0, 120)}` });
  }
  return out;
}

/** A GraphQL literal of the wrong type (or an out-of-range one) for an input type. */
function wrongValue(type: GraphQLInputType, rng: Rng): unknown {
  const named = getNamedType(type);
  if (isScalarType(named)) {
    switch (named.name) {
      case "Int": return rng.pick([2 ** 31, 2 ** 53, -(2 ** 31) - 1, 1.5, "1", true, [1], 1e308]);
      case "Float": return rng.pick(["x", "Infinity", { a: 1 }]);
      case "Boolean": return rng.pick(["true", 1, null]);
      case "ID": return rng.pick([1.5, true, { id: 1 }, "99999999999", "\u0000"]);
      default: return rng.pick([{ s: 1 }, [[1]], 2 ** 53, "a\u0000b", "x\ud800y", "x".repeat(20_000)]);
    }
  }
  if (isEnumType(named)) return rng.pick(["NOT_A_VALUE", 1, "publish"]);
  if (isInputObjectType(named)) return rng.pick(["x", 5, [{}], { noSuchField: 1 }, {}]);
  return null;
}

/** A plausible variable value (so a mutation's document stays valid), possibly hostile in range. */
function validValue(type: GraphQLInputType, rng: Rng, depth = 0): unknown {
  const inner = getNullableType(type) as GraphQLInputType;
  if (isListType(inner)) return [validValue(inner.ofType, rng, depth + 1)];
  if (isScalarType(inner)) {
    switch (inner.name) {
      case "Int": return rng.pick([1, -1, 2 ** 31 - 1, -(2 ** 31), 0]);
      case "Float": return rng.pick([1.5, -1e300, 0]);
      case "Boolean": return rng.chance(0.5);
      case "ID": return rng.pick(["1", "99999999999", "-1", "x", "2147483648"]);
      default: return rng.pick(["x", "😀", "x".repeat(5_000), "' OR 1=1 --", "", "2147483648"]);
    }
  }
  if (isEnumType(inner)) return rng.pick(inner.getValues()).name;
  if (isInputObjectType(inner) && depth < 3) {
    const value: Record<string, unknown> = {};
    for (const field of Object.values(inner.getFields())) {
      if (isNonNullType(field.type) || rng.chance(0.3)) value[field.name] = validValue(field.type, rng, depth + 1);
    }
    return value;
  }
  return {};
}

/** The cheapest selection of a field's type: `__typename` (objects, interfaces, unions) or nothing (scalars). */
function selection(field: GraphQLField<unknown, unknown>): string {
  const named = getNamedType(field.type);
  return isScalarType(named) || isEnumType(named) ? "" : " { __typename }";
}

function argumentList(args: readonly GraphQLArgument[]): { decl: string; use: string } {
  if (args.length === 0) return { decl: "", use: "" };
  return {
    decl: `(${args.map((a) => `$${a.name}: ${a.type.toString()}`).join(", ")})`,
    use: `(${args.map((a) => `${a.name}: $${a.name}`).join(", ")})`,
  };
}

/** A chain of object fields without required arguments, as deep as `depth`, ending in __typename. */
function deepSelection(schema: GraphQLSchema, depth: number, rng: Rng): string {
  let type = schema.getQueryType();
  let open = "";
  let levels = 0;
  while (type && levels < depth) {
    const fields = Object.values(type.getFields()).filter((f) => f.args.every((a) => !isNonNullType(a.type)) && isObjectType(getNamedType(f.type)));
    if (fields.length === 0) break;
    const field = rng.pick(fields);
    open += `${field.name} { `;
    type = getNamedType(field.type) as typeof type;
    levels++;
  }
  return `{ ${open}__typename${" }".repeat(levels)} }`;
}

/** GraphQL operations built from the schema's root fields. */
export function graphqlRequests(schema: GraphQLSchema, rng: Rng, count: number): FuzzRequest[] {
  const roots = [
    ...Object.values(schema.getQueryType()?.getFields() ?? {}).map((f) => ({ kind: "query" as const, field: f })),
    ...Object.values(schema.getMutationType()?.getFields() ?? {}).map((f) => ({ kind: "mutation" as const, field: f })),
  ].filter(({ field }) => !field.name.startsWith("_"));
  const out: FuzzRequest[] = [];
  const push = (query: string, variables: unknown, label: string, auth?: "admin", raw?: string, contentType = "application/json") => {
    out.push({ system: "graphql", method: "POST", path: "/graphql", headers: { "content-type": contentType }, body: raw ?? JSON.stringify({ query, variables }), auth, label });
  };
  for (let i = 0; i < count; i++) {
    const { kind, field } = roots[i % roots.length];
    const { decl, use } = argumentList(field.args);
    const document = `${kind} Fuzz${decl} { ${field.name}${use}${selection(field)} }`;
    const mode = rng.int(10);
    if (mode <= 3 && field.args.length > 0) {
      // One variable of the wrong type: the document is refused before execution, so even mutations may go as admin.
      const variables: Record<string, unknown> = {};
      for (const arg of field.args) variables[arg.name] = validValue(arg.type, rng);
      const bad = rng.pick(field.args);
      variables[bad.name] = wrongValue(bad.type, rng);
      const bumped = variables[bad.name];
      // An odd-but-valid value (e.g. a String that is long) would run the mutation: anonymous then.
      let surelyInvalid = false;
      coerceInputValue(bumped, bad.type, () => { surelyInvalid = true; });
      push(document, variables, `${kind} ${field.name}: $${bad.name} = ${JSON.stringify(bumped)?.slice(0, 60)}`, surelyInvalid || kind === "query" ? (rng.chance(0.6) ? "admin" : undefined) : undefined);
    } else if (mode <= 5) {
      // Plausible variables with hostile values inside their range: anonymous for mutations.
      const variables: Record<string, unknown> = {};
      for (const arg of field.args) if (isNonNullType(arg.type) || rng.chance(0.5)) variables[arg.name] = validValue(arg.type, rng);
      push(document, variables, `${kind} ${field.name}: hostile values`, kind === "query" && rng.chance(0.5) ? "admin" : undefined);
    } else if (mode === 6) {
      const n = rng.pick([50, 200, 1_000]);
      const field = rng.pick(["__typename", "site { name }", "viewer { __typename }"]);
      const q = `{ ${Array.from({ length: n }, (_, k) => `a${k}: ${field}`).join(" ")} }`;
      push(q, {}, `${n} aliases of ${field}`, rng.chance(0.3) ? "admin" : undefined);
    } else if (mode === 7) {
      const depth = rng.pick([10, 50, 200]);
      push(deepSelection(schema, depth, rng), {}, `selection ${depth} deep`, rng.chance(0.5) ? "admin" : undefined);
    } else if (mode === 8) {
      const depth = rng.pick([100, 500, 2_000]);
      push(`{ ${"site { ".repeat(depth)}name${" }".repeat(depth)} }`, {}, `nested ${depth} deep (invalid)`);
    } else {
      const [contentType, raw, what] = rng.pick<[string, string, string]>([
        ["application/json", "{\"query\":", "truncated JSON"],
        ["application/json", JSON.stringify({ query: 5 }), "query not a string"],
        ["application/json", JSON.stringify({ query: "{ site { name } }", variables: "x" }), "variables a string"],
        ["application/json", JSON.stringify({ query: "{ site { name } }", variables: [1] }), "variables an array"],
        ["application/json", JSON.stringify({ query: "{ site { name } ", variables: {} }), "unterminated document"],
        ["application/json", JSON.stringify({ query: "{ site { name } }", operationName: 7 }), "operationName a number"],
        ["application/json", JSON.stringify([{ query: "{ __typename }" }, 5]), "batched array"],
        ["application/json", JSON.stringify({ query: "\u0000" }), "NUL document"],
        ["application/json", JSON.stringify({ query: "{ site { name } }", extensions: { persistedQuery: { version: 1, sha256Hash: "x" } } }), "unknown persisted query"],
        ["text/plain", "{ site { name } }", "text/plain"],
        ["application/graphql", "{ site { name } }", "application/graphql"],
        ["application/json", JSON.stringify({ query: `query Q($a: Int = ${"9".repeat(400)}) { __typename }` }), "huge default literal"],
        ["application/json", JSON.stringify({ query: `{ posts(perPage: ${2 ** 53}) { totalCount } }` }), "huge Int literal"],
        ["application/json", JSON.stringify({ query: "{ __typename } { __typename }" }), "two anonymous operations"],
      ]);
      push("", {}, `bad request: ${what}`, undefined, raw, contentType);
    }
  }
  return out;
}
