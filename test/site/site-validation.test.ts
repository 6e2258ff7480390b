// Pure unit tests for WordPress-style REST argument handling (reference §1.2, §1.3, §2, §7).
import { describe, expect, it } from "vitest";
import type { ArgSchema } from "../../router/rest/site/route.ts";
import {
  type Schema, processArgs, sanitizeValue, validateValue, validatedBySchema,
} from "../../router/rest/site/validation.ts";

const GET = { method: "GET" as const, identity: {} };
const POST = { method: "POST" as const, identity: {} };

/** The message of a failing validateValue, or "ok". */
function msg(value: unknown, schema: Schema, path = "x"): string {
  const r = validateValue(value, schema, path);
  return r === true ? "ok" : r.message;
}

function err(value: unknown, schema: Schema, path = "x") {
  const r = validateValue(value, schema, path);
  if (r === true) throw new Error("expected an error");
  return { code: r.code, message: r.message, data: r.data ?? null };
}

// WordPress's posts collection `categories` filter (hierarchical, include form).
const termList: ArgSchema = { title: "Term ID List", type: "array", items: { type: "integer" } };
const termQuery: ArgSchema = {
  title: "Term ID Taxonomy Query",
  type: "object",
  properties: {
    terms: { type: "array", items: { type: "integer" } },
    include_children: { type: "boolean", default: false },
    operator: { type: "string", enum: ["AND", "OR"], default: "OR" },
  },
  additionalProperties: false,
};
const categories: ArgSchema = { type: ["object", "array"], oneOf: [termList, termQuery] };

// The batch/v1 `requests` arg.
const requestsArg: ArgSchema = {
  type: "array",
  required: true,
  maxItems: 25,
  items: {
    type: "object",
    properties: {
      method: { type: "string", enum: ["POST", "PUT", "PATCH", "DELETE"], default: "POST" },
      path: { type: "string", required: true },
      body: { type: "object", properties: {}, additionalProperties: true },
      headers: { type: "object", properties: {}, additionalProperties: { type: ["string", "array"], items: { type: "string" } } },
    },
  },
};

describe("integer", () => {
  const int: Schema = { type: "integer" };
  it("accepts integer-like values and casts them", () => {
    for (const v of [5, " 5", "5 ", "+5", "-5", "5.0", "1e1", 1.0]) expect(msg(v, int)).toBe("ok");
    expect(sanitizeValue("1e3", int, "x")).toBe(1000);
    expect(sanitizeValue(" 5", int, "x")).toBe(5);
    expect(sanitizeValue("5.0", int, "x")).toBe(5);
  });
  it("rejects non-integers with rest_invalid_type and data.param", () => {
    for (const v of ["abc", "", true, "1.5", "0x1A", null, [1]]) expect(msg(v, int, "per_page")).toBe("per_page is not of type integer.");
    expect(err("abc", int, "per_page")).toEqual({ code: "rest_invalid_type", message: "per_page is not of type integer.", data: { param: "per_page" } });
  });
  it("checks bounds before the integer check", () => {
    expect(msg("1.5", { type: "integer", maximum: 1 }, "n")).toBe("n must be less than or equal to 1");
    expect(msg("1.5", { type: "integer", maximum: 2 }, "n")).toBe("n is not of type integer.");
  });
});

describe("number", () => {
  it("accepts is_numeric values and casts to float", () => {
    expect(msg("1.5", { type: "number" })).toBe("ok");
    expect(msg(" 2e3 ", { type: "number" })).toBe("ok");
    expect(sanitizeValue("1.5", { type: "number" }, "x")).toBe(1.5);
    expect(msg("abc", { type: "number" })).toBe("x is not of type number.");
    expect(msg(true, { type: "number" })).toBe("x is not of type number.");
  });
});

describe("boolean", () => {
  const bool: Schema = { type: "boolean" };
  it("accepts true/false/1/0 in any case and casts", () => {
    for (const v of [true, false, "true", "FALSE", "True", "1", "0", 0, 1]) expect(msg(v, bool)).toBe("ok");
    expect(sanitizeValue("false", bool, "x")).toBe(false);
    expect(sanitizeValue("FALSE", bool, "x")).toBe(false);
    expect(sanitizeValue("0", bool, "x")).toBe(false);
    expect(sanitizeValue("1", bool, "x")).toBe(true);
    expect(sanitizeValue("TRUE", bool, "x")).toBe(true);
    expect(sanitizeValue(0, bool, "x")).toBe(false);
  });
  it("rejects empty, yes, on, and other numbers", () => {
    for (const v of ["", "yes", "on", 2, null]) expect(msg(v, bool, "force")).toBe("force is not of type boolean.");
  });
});

describe("string and null", () => {
  it("takes only strings (a JSON number fails)", () => {
    expect(msg("abc", { type: "string" }, "slug")).toBe("ok");
    expect(msg(5, { type: "string" }, "slug")).toBe("slug is not of type string.");
    expect(msg(null, { type: "string" }, "slug")).toBe("slug is not of type string.");
    expect(msg(null, { type: "null" })).toBe("ok");
    expect(msg("", { type: "null" })).toBe("x is not of type null.");
  });
  it("checks minLength/maxLength in code points, with singular `character`", () => {
    expect(err("ab", { type: "string", minLength: 3 }, "s")).toEqual({ code: "rest_too_short", message: "s must be at least 3 characters long.", data: null });
    expect(msg("", { type: "string", minLength: 1 }, "s")).toBe("s must be at least 1 character long.");
    expect(err("abcd", { type: "string", maxLength: 3 }, "s")).toEqual({ code: "rest_too_long", message: "s must be at most 3 characters long.", data: null });
    expect(msg("ab", { type: "string", maxLength: 1 }, "s")).toBe("s must be at most 1 character long.");
    expect(msg("😀é", { type: "string", maxLength: 2 }, "s")).toBe("ok");
  });
  it("matches pattern unanchored unless anchored, with unicode", () => {
    expect(err("12a", { type: "string", pattern: "^[0-9]+$" }, "p")).toEqual({ code: "rest_invalid_pattern", message: "p does not match pattern ^[0-9]+$.", data: null });
    expect(msg("a12b", { type: "string", pattern: "[0-9]+" }, "p")).toBe("ok");
    expect(msg("123\n", { type: "string", pattern: "^[0-9]+$" }, "p")).toBe("ok"); // PCRE `$` before a final newline
    expect(msg("ü", { type: "string", pattern: "^\\p{L}$" }, "p")).toBe("ok");
    expect(msg("ab", { type: "string", pattern: "^.$" }, "p")).toBe("p does not match pattern ^.$.");
    expect(msg("😀", { type: "string", pattern: "^.$" }, "p")).toBe("ok");
  });
});

describe("array", () => {
  const ints: Schema = { type: "array", items: { type: "integer" } };
  it("splits scalars on commas and whitespace and casts items", () => {
    expect(sanitizeValue("1,2 3", ints, "include")).toEqual([1, 2, 3]);
    expect(sanitizeValue("", ints, "include")).toEqual([]);
    expect(sanitizeValue("x", { type: "array", items: { type: "string" } }, "a")).toEqual(["x"]);
    expect(sanitizeValue(5, ints, "include")).toEqual([5]);
    expect(sanitizeValue(["1", "2"], ints, "include")).toEqual([1, 2]);
    expect(sanitizeValue({ 0: "1", 3: "4" }, ints, "include")).toEqual([1, 4]);
  });
  it("reports item errors with indexed paths, and rejects maps with string keys", () => {
    expect(err("1,2,x", ints, "include")).toEqual({ code: "rest_invalid_type", message: "include[2] is not of type integer.", data: { param: "include[2]" } });
    expect(msg({ a: 1 }, ints, "include")).toBe("include is not of type array.");
    expect(msg(null, ints, "include")).toBe("include is not of type array.");
  });
  it("checks minItems/maxItems with singular `item`, and uniqueItems", () => {
    expect(err([], { type: "array", minItems: 1 }, "modifiers")).toEqual({ code: "rest_too_few_items", message: "modifiers must contain at least 1 item.", data: null });
    expect(msg([1], { type: "array", minItems: 2 }, "m")).toBe("m must contain at least 2 items.");
    expect(msg([1, 2], { type: "array", maxItems: 1 }, "m")).toBe("m must contain at most 1 item.");
    expect(err("1,1", { type: "array", uniqueItems: true }, "x")).toEqual({ code: "rest_duplicate_items", message: "x has duplicate items.", data: null });
    expect(msg([1, "1"], { type: "array", uniqueItems: true })).toBe("ok");
    expect(msg([{ a: 1, b: 2 }, { b: 2, a: 1 }], { type: "array", uniqueItems: true })).toBe("x has duplicate items.");
    // Unique until coerced: sanitize reports it too.
    const r = sanitizeValue([1, "1"], { type: "array", items: { type: "integer" }, uniqueItems: true }, "x");
    expect(r).toMatchObject({ code: "rest_duplicate_items", message: "x has duplicate items." });
  });
});

describe("object", () => {
  it("accepts maps and \"\" (empty object), rejects scalars", () => {
    expect(msg({ a: 1 }, { type: "object" }, "meta")).toBe("ok");
    expect(msg("", { type: "object" }, "meta")).toBe("ok");
    expect(sanitizeValue("", { type: "object" }, "meta")).toEqual({});
    expect(err("x", { type: "object" }, "meta")).toEqual({ code: "rest_invalid_type", message: "meta is not of type object.", data: { param: "meta" } });
  });
  it("validates properties with paths and forbids additional properties by bare name", () => {
    const s: Schema = { type: "object", properties: { n: { type: "integer" } }, additionalProperties: false };
    expect(msg({ n: "x" }, s, "o")).toBe("o[n] is not of type integer.");
    expect(err({ n: 1, foo: 2 }, s, "o")).toEqual({ code: "rest_additional_properties_forbidden", message: "foo is not a valid property of Object.", data: null });
    expect(sanitizeValue({ n: "3", foo: 2 }, s, "o")).toEqual({ n: 3 });
    const open: Schema = { type: "object", properties: { n: { type: "integer" } } };
    expect(sanitizeValue({ n: "3", foo: "2" }, open, "o")).toEqual({ n: 3, foo: "2" });
  });
  it("applies additionalProperties schemas and patternProperties", () => {
    const s: Schema = { type: "object", patternProperties: { "^[a-z]+$": { type: "integer" } }, additionalProperties: { type: "boolean" } };
    expect(sanitizeValue({ abc: "4", A1: "true" }, s, "o")).toEqual({ abc: 4, A1: true });
    expect(msg({ abc: "x" }, s, "o")).toBe("o[abc] is not of type integer.");
    expect(msg({ A1: "x" }, s, "o")).toBe("o[A1] is not of type boolean.");
  });
  it("reports required properties (v3 and v4 forms)", () => {
    expect(err({}, { type: "object", properties: { path: { type: "string", required: true } } }, "requests[0]"))
      .toEqual({ code: "rest_property_required", message: "path is a required property of requests[0].", data: null });
    expect(msg({}, { type: "object", required: ["a"] }, "o")).toBe("a is a required property of o.");
  });
  it("checks minProperties/maxProperties", () => {
    expect(err({ a: 1 }, { type: "object", minProperties: 2 }, "x")).toEqual({ code: "rest_too_few_properties", message: "x must contain at least 2 properties.", data: null });
    expect(err({ a: 1, b: 2 }, { type: "object", maxProperties: 1 }, "x")).toEqual({ code: "rest_too_many_properties", message: "x must contain at most 1 property.", data: null });
  });
});

describe("type lists", () => {
  it("joins types with a bare comma and sanitizes to null on no match", () => {
    const s: Schema = { type: ["string", "object"] };
    expect(err(5, s, "title")).toEqual({ code: "rest_invalid_type", message: "title is not of type string,object.", data: { param: "title" } });
    expect(sanitizeValue(5, s, "title")).toBeNull();
  });
  it("takes the first matching type, and \"\" prefers string", () => {
    expect(sanitizeValue("", { type: ["array", "string"] }, "x")).toBe("");
    expect(sanitizeValue("5", { type: ["integer", "string"] }, "x")).toBe(5);
    expect(sanitizeValue("a,b", { type: ["array", "string"] }, "x")).toEqual(["a", "b"]);
  });
});

describe("enum", () => {
  it("words the message by count, Oxford comma for three or more", () => {
    expect(err("x", { type: "string", enum: ["exact"] }, "search_semantics")).toEqual({ code: "rest_not_in_enum", message: "search_semantics is not exact.", data: null });
    expect(msg("up", { type: "string", enum: ["asc", "desc"] }, "order")).toBe("order is not one of asc and desc.");
    expect(msg("x", { type: "string", enum: ["view", "embed", "edit"] }, "context")).toBe("context is not one of view, embed, and edit.");
    expect(msg("x", { type: "string", enum: ["_blank", ""] }, "target")).toBe("target is not one of _blank and .");
    expect(msg(3, { type: "integer", enum: [1, [2], { a: "/" }] }, "n")).toBe('n is not one of 1, [2], and {"a":"\\/"}.');
  });
  it("compares the sanitized value", () => {
    expect(msg("2", { type: "integer", enum: [1, 2] })).toBe("ok");
    expect(msg("true", { type: "boolean", enum: [true] })).toBe("ok");
  });
});

describe("bounds and multipleOf", () => {
  it("words each bound combination without a full stop", () => {
    expect(err(0, { type: "integer", minimum: 1 }, "page")).toEqual({ code: "rest_out_of_bounds", message: "page must be greater than or equal to 1", data: null });
    expect(msg(5, { type: "integer", minimum: 5, exclusiveMinimum: true }, "n")).toBe("n must be greater than 5");
    expect(msg(6, { type: "integer", maximum: 5 }, "n")).toBe("n must be less than or equal to 5");
    expect(msg(5, { type: "integer", maximum: 5, exclusiveMaximum: true }, "n")).toBe("n must be less than 5");
    const perPage: Schema = { type: "integer", minimum: 1, maximum: 100 };
    expect(msg(0, perPage, "per_page")).toBe("per_page must be between 1 (inclusive) and 100 (inclusive)");
    expect(msg("101", perPage, "per_page")).toBe("per_page must be between 1 (inclusive) and 100 (inclusive)");
    expect(msg(100, perPage, "per_page")).toBe("ok");
    const rotation: Schema = { type: "number", minimum: 0, maximum: 360, exclusiveMinimum: true, exclusiveMaximum: true };
    expect(msg(360, rotation, "rotation")).toBe("rotation must be between 0 (exclusive) and 360 (exclusive)");
    expect(msg(0, { type: "number", minimum: 0, maximum: 1, exclusiveMinimum: true }, "r")).toBe("r must be between 0 (exclusive) and 1 (inclusive)");
    expect(msg(1, { type: "number", minimum: 0, maximum: 1, exclusiveMaximum: true }, "r")).toBe("r must be between 0 (inclusive) and 1 (exclusive)");
    expect(msg(0, { type: "number", minimum: 0.5 }, "r")).toBe("r must be greater than or equal to 0"); // %d
  });
  it("checks multipleOf", () => {
    expect(err(4, { type: "integer", multipleOf: 3 }, "x")).toEqual({ code: "rest_invalid_multiple", message: "x must be a multiple of 3.", data: null });
    expect(msg("6", { type: "integer", multipleOf: 3 })).toBe("ok");
    expect(msg(0.75, { type: "number", multipleOf: 0.5 })).toBe("x must be a multiple of 0.5.");
  });
});

describe("formats", () => {
  it("date-time needs a full RFC 3339-style timestamp", () => {
    const s: Schema = { type: "string", format: "date-time" };
    for (const v of ["2020-01-01T10:00:00", "2020-01-01t10:00:00", "2020-01-01 10:00:00", "2020-01-01T10:00:00.123Z", "2020-01-01T10:00:00+02:00", "2020-01-01T10:00:00-05"]) {
      expect(msg(v, s, "date")).toBe("ok");
    }
    for (const v of ["2020-01-01", "2020-13-01T00:00:00", "2020-01-01T10:60:00", "nope", "2020-01-01T10:00"]) {
      expect(err(v, s, "date")).toEqual({ code: "rest_invalid_date", message: "Invalid date.", data: null });
    }
  });
  it("email, ip, uuid and hex-color", () => {
    expect(msg("a@example.com", { type: "string", format: "email" })).toBe("ok");
    for (const v of ["a@b", "ab@example", "a b@example.com", "a@-ex.com", "a@ex..com"]) {
      expect(err(v, { type: "string", format: "email" })).toEqual({ code: "rest_invalid_email", message: "Invalid email address.", data: null });
    }
    for (const v of ["127.0.0.1", "::1", "2001:db8::8a2e:370:7334", "::ffff:192.168.0.1", "1:2:3:4:5:6:7:8"]) {
      expect(msg(v, { type: "string", format: "ip" }, "ip")).toBe("ok");
    }
    for (const v of ["256.0.0.1", "1:2:3:4:5:6:7:8:9", "12345::", "abc"]) {
      expect(err(v, { type: "string", format: "ip" }, "ip")).toEqual({ code: "rest_invalid_ip", message: "ip is not a valid IP address.", data: null });
    }
    expect(msg("123e4567-e89b-12d3-a456-426614174000", { type: "string", format: "uuid" }, "id")).toBe("ok");
    expect(err("nope", { type: "string", format: "uuid" }, "id")).toEqual({ code: "rest_invalid_uuid", message: "id is not a valid UUID.", data: null });
    expect(msg("#abc", { type: "string", format: "hex-color" })).toBe("ok");
    expect(msg("#aabbcc", { type: "string", format: "hex-color" })).toBe("ok");
    expect(err("#abcd", { type: "string", format: "hex-color" })).toEqual({ code: "rest_invalid_hex_color", message: "Invalid hex color.", data: null });
  });
  it("format applies only to strings and untyped schemas", () => {
    expect(msg(5, { type: "integer", format: "email" })).toBe("ok");
    expect(msg("nope", { format: "email" })).toBe("Invalid email address.");
  });
  it("never validates uri, but sanitizes it", () => {
    const uri: Schema = { type: "string", format: "uri" };
    expect(msg("javascript:alert(1)", uri)).toBe("ok");
    expect(sanitizeValue("javascript:alert(1)", uri, "x")).toBe("");
    expect(sanitizeValue("example.com/a b", uri, "x")).toBe("http://example.com/a%20b");
    expect(sanitizeValue("https://example.com/?a=1&b=2", uri, "x")).toBe("https://example.com/?a=1&b=2");
    expect(sanitizeValue("/relative", uri, "x")).toBe("/relative");
    expect(sanitizeValue("mailto:a@b.com", uri, "x")).toBe("mailto:a@b.com");
  });
  it("sanitizes text fields", () => {
    expect(sanitizeValue("  a <b>bold</b>\n\tc  ", { type: "string", format: "text-field" }, "x")).toBe("a bold c");
    expect(sanitizeValue("a\n b ", { type: "string", format: "textarea-field" }, "x")).toBe("a\n b");
    expect(sanitizeValue("x%41y", { type: "string", format: "text-field" }, "x")).toBe("xy");
    expect(sanitizeValue("a<b", { type: "string", format: "text-field" }, "x")).toBe("a&lt;b");
  });
});

describe("oneOf / anyOf (categories filter)", () => {
  it("accepts lists and the taxonomy-query object", () => {
    expect(sanitizeValue("1,2", categories, "categories")).toEqual([1, 2]);
    expect(sanitizeValue("5", categories, "categories")).toEqual([5]);
    expect(sanitizeValue({ terms: ["1"], operator: "AND" }, categories, "categories")).toEqual({ terms: [1], operator: "AND" });
    expect(sanitizeValue({ terms: "1,2", include_children: "true" }, categories, "categories")).toEqual({ terms: [1, 2], include_children: true });
  });
  it("explains the branch that failed, with its position", () => {
    expect(err("abc", categories, "categories")).toEqual({
      code: "rest_no_matching_schema",
      message: "categories is not a valid Term ID List. Reason: categories[0] is not of type integer.",
      data: { position: 0 },
    });
    expect(err({ foo: "1" }, categories, "categories")).toEqual({
      code: "rest_no_matching_schema",
      message: "categories is not a valid Term ID Taxonomy Query. Reason: foo is not a valid property of Object.",
      data: { position: 1 },
    });
    expect(msg({ operator: "XOR" }, categories, "categories"))
      .toBe("categories is not a valid Term ID Taxonomy Query. Reason: categories[operator] is not one of AND and OR.");
  });
  it("rejects a value matching both branches", () => {
    for (const v of ["", []]) {
      expect(err(v, categories, "categories")).toEqual({
        code: "rest_one_of_multiple_matches",
        message: "categories matches Term ID List and Term ID Taxonomy Query, but should match only one.",
        data: { positions: [0, 1] },
      });
    }
  });
  it("falls back to generic messages without titles", () => {
    const untitled: Schema = { oneOf: [{ type: "integer" }, { type: "boolean" }] };
    expect(msg("x", untitled)).toBe("x does not match any of the expected formats.");
    expect(msg(1, untitled)).toBe("x matches more than one of the expected formats.");
    expect(msg("x", { anyOf: [{ type: "integer", minimum: 5 }] })).toBe("x does not match the expected format. Reason: x is not of type integer.");
    expect(msg("x", { anyOf: [{ title: "A", type: "integer" }, { title: "B", type: "boolean" }] })).toBe("x is not a valid A and B.");
    expect(sanitizeValue("7", { anyOf: [{ type: "boolean" }, { type: "integer" }] }, "x")).toBe(7);
  });
});

describe("processArgs: sources and priority", () => {
  const args: Record<string, ArgSchema> = {
    id: { type: "integer" },
    context: { type: "string", enum: ["view", "embed", "edit"], default: "view" },
    force: { type: "boolean", default: false },
  };
  it("merges json > body > query > url > defaults and passes unknown params through", () => {
    const r = processArgs(args, { json: { id: "9" }, body: { id: "8" }, query: { id: "7", foo: "bar" }, url: { id: "5" } }, POST);
    expect(r).toEqual({ ok: true, params: { id: 9, foo: "bar", context: "view", force: false }, sent: new Set(["id", "foo"]) });
    const q = processArgs(args, { query: { force: "true" }, url: { id: "5" } }, GET);
    expect(q.ok && q.params).toEqual({ id: 5, force: true, context: "view" });
  });
  it("ignores a form body on GET, and a null value falls through to lower sources", () => {
    const r = processArgs({ id: { type: ["integer", "null"] } }, { body: { id: "8" }, json: { id: null }, query: {}, url: { id: "5" } }, GET);
    expect(r.ok && r.params.id).toBe(5);
  });
  it("applies skipValidation args and custom sanitizers", () => {
    const r = processArgs(
      {
        title: { type: "string", skipValidation: true },
        page: { type: "integer", sanitize: (v) => Math.abs(Number(v)) },
      },
      { json: { title: { raw: 5 } }, query: { page: "-3" }, url: {} },
      POST,
    );
    expect(r.ok && r.params).toEqual({ title: { raw: 5 }, page: 3 });
  });
});

describe("processArgs: rest_missing_callback_param", () => {
  it("lists every missing required arg; null counts as missing", () => {
    const r = processArgs({ a: { type: "string", required: true }, b: { type: "string", required: true }, c: { type: "string" } }, { json: { b: null }, query: {}, url: {} }, POST);
    expect(r).toEqual({
      ok: false,
      error: { code: "rest_missing_callback_param", message: "Missing parameter(s): a, b", data: { status: 400, params: ["a", "b"] } },
    });
  });
  it("batch: a missing `requests` is a missing param", () => {
    const r = processArgs({ requests: requestsArg }, { json: {}, query: {}, url: {} }, POST);
    expect(!r.ok && r.error.message).toBe("Missing parameter(s): requests");
  });
});

describe("processArgs: rest_invalid_param", () => {
  const collection: Record<string, ArgSchema> = {
    context: { type: "string", enum: ["view", "embed", "edit"], default: "view" },
    page: validatedBySchema({ type: "integer", default: 1, minimum: 1 }),
    per_page: validatedBySchema({ type: "integer", default: 10, minimum: 1, maximum: 100 }),
    order: { type: "string", enum: ["asc", "desc"], default: "desc" },
  };

  it("reports the §1.3 per_page/page example exactly", () => {
    const r = processArgs(collection, { query: { per_page: "500", page: "x" }, url: {} }, GET);
    expect(r).toEqual({
      ok: false,
      error: {
        code: "rest_invalid_param",
        message: "Invalid parameter(s): page, per_page",
        data: {
          status: 400,
          params: { page: "page is not of type integer.", per_page: "per_page must be between 1 (inclusive) and 100 (inclusive)" },
          details: {
            page: { code: "rest_invalid_type", message: "page is not of type integer.", data: { param: "page" } },
            per_page: { code: "rest_out_of_bounds", message: "per_page must be between 1 (inclusive) and 100 (inclusive)", data: null },
          },
        },
      },
    });
  });
  it("stops at the validate phase: ?page=x&order=up reports only page", () => {
    const r = processArgs(collection, { query: { page: "x", order: "up" }, url: {} }, GET);
    expect(!r.ok && r.error.data.params).toEqual({ page: "page is not of type integer." });
  });
  it("type-only args fail in the sanitize phase, in source order", () => {
    const r = processArgs(collection, { json: { order: "up" }, query: { context: "nope" }, url: {} }, POST);
    expect(!r.ok && r.error).toEqual({
      code: "rest_invalid_param",
      message: "Invalid parameter(s): order, context",
      data: {
        status: 400,
        params: { order: "order is not one of asc and desc.", context: "context is not one of view, embed, and edit." },
        details: {
          order: { code: "rest_not_in_enum", message: "order is not one of asc and desc.", data: null },
          context: { code: "rest_not_in_enum", message: "context is not one of view, embed, and edit.", data: null },
        },
      },
    });
  });
  it("a JSON null reaches the sanitize phase for a type-only arg", () => {
    const r = processArgs({ slug: { type: "string" } }, { json: { slug: null }, query: {}, url: {} }, POST);
    expect(!r.ok && r.error.data.params).toEqual({ slug: "slug is not of type string." });
  });
  it("a validate callback returning false gives `Invalid parameter.` and details []", () => {
    const reject = (() => false) as unknown as ArgSchema["validate"];
    const r = processArgs({ a: { type: "string", validate: reject } }, { query: { a: "x" }, url: {} }, GET);
    expect(!r.ok && r.error).toEqual({
      code: "rest_invalid_param",
      message: "Invalid parameter(s): a",
      data: { status: 400, params: { a: "Invalid parameter." }, details: [] },
    });
  });
  it("a sanitize callback's own status stays inside details (still 400)", () => {
    const status: ArgSchema = {
      type: "array",
      items: { type: "string", enum: ["publish", "draft"] },
      default: "publish",
      sanitize: (v, request) => {
        const list = v as string[];
        if (!request.identity.site && list.some((s) => s !== "publish")) {
          return { code: "rest_forbidden_status", message: "Status is forbidden.", data: { status: 401 } };
        }
        return list;
      },
    };
    const r = processArgs({ status }, { query: { status: "draft" }, url: {} }, GET);
    expect(!r.ok && r.error).toEqual({
      code: "rest_invalid_param",
      message: "Invalid parameter(s): status",
      data: {
        status: 400,
        params: { status: "Status is forbidden." },
        details: { status: { code: "rest_forbidden_status", message: "Status is forbidden.", data: { status: 401 } } },
      },
    });
    const ok = processArgs({ status }, { query: {}, url: {} }, GET);
    expect(ok.ok && ok.params.status).toEqual(["publish"]);
  });
  it("reports the categories oneOf errors through the request", () => {
    const r = processArgs({ categories }, { query: { categories: "" }, url: {} }, GET);
    expect(!r.ok && r.error.data.details).toEqual({
      categories: {
        code: "rest_one_of_multiple_matches",
        message: "categories matches Term ID List and Term ID Taxonomy Query, but should match only one.",
        data: { positions: [0, 1] },
      },
    });
    const ok = processArgs({ categories }, { query: { categories: { terms: ["1"], operator: "AND" } }, url: {} }, GET);
    expect(ok.ok && ok.params.categories).toEqual({ terms: [1], operator: "AND" });
  });
});

describe("processArgs: batch requests (§7)", () => {
  const batchArgs: Record<string, ArgSchema> = {
    validation: { type: "string", enum: ["require-all-validate", "normal"], default: "normal" },
    requests: requestsArg,
  };
  const run = (requests: unknown) => processArgs(batchArgs, { json: { requests }, query: {}, url: {} }, POST);

  it("rejects a GET sub-request by enum", () => {
    const r = run([{ method: "GET", path: "/wp/v2/posts" }]);
    expect(!r.ok && r.error.data.params).toEqual({ requests: "requests[0][method] is not one of POST, PUT, PATCH, and DELETE." });
  });
  it("requires path, objects, and at most 25 items", () => {
    let r = run([{ method: "POST" }]);
    expect(!r.ok && r.error.data.details).toEqual({ requests: { code: "rest_property_required", message: "path is a required property of requests[0].", data: null } });
    r = run(["x"]);
    expect(!r.ok && r.error.data.params).toEqual({ requests: "requests[0] is not of type object." });
    r = run(Array.from({ length: 26 }, () => ({ path: "/wp/v2/posts" })));
    expect(!r.ok && r.error.data.details).toEqual({ requests: { code: "rest_too_many_items", message: "requests must contain at most 25 items.", data: null } });
  });
  it("passes valid requests through, coerced", () => {
    const r = run([{ path: "/wp/v2/posts", body: { title: "x" }, headers: { "x-a": "1", "x-b": ["2"] } }]);
    expect(r.ok && r.params).toEqual({
      requests: [{ path: "/wp/v2/posts", body: { title: "x" }, headers: { "x-a": "1", "x-b": ["2"] } }],
      validation: "normal",
    });
  });
});
