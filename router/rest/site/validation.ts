// WordPress REST argument handling as a pure module: rest_validate_value_from_schema,
// rest_sanitize_value_from_schema, and WP_REST_Request::has_valid_params / sanitize_params,
// with WordPress's exact codes, messages and error shapes (reference §1–2).
import type { Method } from "../table.ts";
import type { ArgCheckRequest, ArgError, ArgSchema, JsonType } from "./route.ts";
import {
  type PlainObject,
  isBooleanLike, isDateTime, isEmail, isHexColor, isIntegerLike, isIpAddress, isNumeric,
  isNumericArray, isPhpArray, isPlainObject, isScalar, isUuid, matchesPattern, numberFormat,
  parseList, phpEntries, phpIntFormat, phpJsonEncode, phpString, sanitizeBoolean,
  sanitizeHexColor, sanitizeTextField, sanitizeUrl, sprintfList, toFloat, toInt, uniqueKey,
  valuesEqual,
} from "../../../lib/wordpress/php-values.ts";

export interface ParamSources {
  json?: Record<string, unknown>;
  body?: Record<string, unknown>;
  query: Record<string, unknown>;
  url: Record<string, string>;
}

export interface WpError {
  code: string;
  message: string;
  data: { status: number; params?: unknown; details?: unknown; [k: string]: unknown };
}

/**
 * A schema as the validator reads it: ArgSchema plus the JSON Schema keywords WordPress also
 * honours but ArgSchema does not declare (v4 `required` lists, min/maxProperties). Every
 * ArgSchema is one, so route schemas pass straight in.
 */
export type Schema = Omit<ArgSchema, "required" | "items" | "properties" | "additionalProperties" | "patternProperties" | "oneOf" | "anyOf"> & {
  required?: boolean | readonly string[];
  minProperties?: number;
  maxProperties?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  patternProperties?: Record<string, Schema>;
  oneOf?: Schema[];
  anyOf?: Schema[];
};

/** Errors this module creates; a class so a sanitized object value is never mistaken for one. */
class SchemaError implements ArgError {
  code: string;
  message: string;
  data?: Record<string, unknown>;
  constructor(code: string, message: string, data?: Record<string, unknown>) {
    this.code = code;
    this.message = message;
    if (data !== undefined) this.data = data;
  }
}

function fail(code: string, message: string, data?: Record<string, unknown>): SchemaError {
  return new SchemaError(code, message, data);
}

function typeError(path: string, type: string): SchemaError {
  return fail("rest_invalid_type", `${path} is not of type ${type}.`, { param: path });
}

/** An ArgError returned by a callback: ours, or a plain `{code, message, data?}` object. */
export function isArgError(v: unknown): v is ArgError {
  if (v instanceof SchemaError) return true;
  if (!isPlainObject(v) || typeof v.code !== "string" || typeof v.message !== "string") return false;
  return Object.keys(v).every((k) => k === "code" || k === "message" || k === "data");
}

// ---- Types --------------------------------------------------------------------------------

/** `rest_is_array`: a list, a map with only integer keys, or any scalar (split as a list). */
function isArrayLike(v: unknown): boolean {
  return isScalar(v) || isNumericArray(v);
}

/** `rest_is_object`: "" or any PHP array (a list counts, as in PHP). */
function isObjectLike(v: unknown): boolean {
  return v === "" || isPhpArray(v);
}

/** `rest_sanitize_array`. */
function toList(v: unknown): unknown[] {
  if (isScalar(v)) return parseList(v);
  if (Array.isArray(v)) return [...v];
  if (isPlainObject(v)) return Object.values(v);
  return [];
}

/** `rest_sanitize_object`, as key/value pairs so list indexes keep their order. */
function toEntries(v: unknown): [string, unknown][] {
  return isPhpArray(v) ? phpEntries(v) : [];
}

const TYPE_CHECKS: Record<JsonType, (v: unknown) => boolean> = {
  array: isArrayLike,
  object: isObjectLike,
  integer: isIntegerLike,
  number: isNumeric,
  boolean: isBooleanLike,
  string: (v) => typeof v === "string",
  null: (v) => v === null || v === undefined,
};

/** `rest_get_best_type_for_value`: first listed type that fits; "" prefers string. */
function bestType(value: unknown, types: readonly JsonType[]): JsonType | undefined {
  if (value === "" && types.includes("string")) return "string";
  return types.find((t) => TYPE_CHECKS[t](value));
}

// ---- anyOf / oneOf ------------------------------------------------------------------------

interface BranchError { error: ArgError; schema: Schema; index: number }

function formatBranchError(path: string, e: BranchError): SchemaError {
  const reason = e.error.message;
  if (e.schema.title !== undefined) {
    return fail("rest_no_matching_schema", `${path} is not a valid ${e.schema.title}. Reason: ${reason}`, { position: e.index });
  }
  return fail("rest_no_matching_schema", `${path} does not match the expected format. Reason: ${reason}`, { position: e.index });
}

/** `rest_get_combining_operation_error`: picks the most telling branch error. */
function combiningError(value: unknown, path: string, errors: BranchError[]): SchemaError {
  if (errors.length === 1) return formatBranchError(path, errors[0]);
  // A branch that failed only because the whole value had the wrong type says little.
  const filtered = errors.filter(({ error }) => {
    const param = error.data?.param;
    return error.code !== "rest_invalid_type" || (param !== undefined && param !== null && param !== path);
  });
  if (filtered.length === 1) return formatBranchError(path, filtered[0]);
  if (filtered.length > 1 && filtered[0].schema.type === "object") {
    // Prefer the object branch that shares the most property names with the value.
    const keys = new Set(isPhpArray(value) ? phpEntries(value).map(([k]) => k) : []);
    let best: BranchError | undefined;
    let bestCount = 0;
    for (const e of filtered) {
      if (!e.schema.properties) continue;
      const n = Object.keys(e.schema.properties).filter((k) => keys.has(k)).length;
      if (n > bestCount) { best = e; bestCount = n; }
    }
    if (best) return formatBranchError(path, best);
  }
  const titles = errors.map((e) => e.schema.title).filter((t): t is string => t !== undefined);
  if (titles.length === errors.length) {
    return fail("rest_no_matching_schema", `${path} is not a valid ${sprintfList(titles)}.`);
  }
  return fail("rest_no_matching_schema", `${path} does not match any of the expected formats.`);
}

/** A branch inherits the parent's type when it has none. */
function branch(parent: Schema, sub: Schema): Schema {
  return sub.type === undefined && parent.type !== undefined ? { ...sub, type: parent.type } : sub;
}

function findAnyMatching(value: unknown, args: Schema, path: string): Schema | SchemaError {
  const errors: BranchError[] = [];
  for (const [index, sub] of (args.anyOf ?? []).entries()) {
    const schema = branch(args, sub);
    const r = validateValue(value, schema, path);
    if (r === true) return schema;
    errors.push({ error: r, schema, index });
  }
  return combiningError(value, path, errors);
}

function findOneMatching(value: unknown, args: Schema, path: string): Schema | SchemaError {
  const matches: { schema: Schema; index: number }[] = [];
  const errors: BranchError[] = [];
  for (const [index, sub] of (args.oneOf ?? []).entries()) {
    const schema = branch(args, sub);
    const r = validateValue(value, schema, path);
    if (r === true) matches.push({ schema, index });
    else errors.push({ error: r, schema, index });
  }
  if (matches.length === 0) return combiningError(value, path, errors);
  if (matches.length > 1) {
    const positions = matches.map((m) => m.index);
    const titles = matches.map((m) => m.schema.title).filter((t): t is string => t !== undefined);
    if (titles.length === matches.length) {
      return fail("rest_one_of_multiple_matches", `${path} matches ${sprintfList(titles)}, but should match only one.`, { positions });
    }
    return fail("rest_one_of_multiple_matches", `${path} matches more than one of the expected formats.`, { positions });
  }
  return matches[0].schema;
}

/** Resolves anyOf/oneOf; the parent takes the matching branch's type when it has none. */
function resolveCombinators(value: unknown, schema: Schema, path: string): { args: Schema; matched: Schema[] } | SchemaError {
  let args = schema;
  const matched: Schema[] = [];
  for (const find of [args.anyOf ? findAnyMatching : undefined, args.oneOf ? findOneMatching : undefined]) {
    if (!find) continue;
    const m = find(value, args, path);
    if (m instanceof SchemaError) return m;
    matched.push(m);
    if (args.type === undefined && m.type !== undefined) args = { ...args, type: m.type };
  }
  return { args, matched };
}

// ---- Validation ---------------------------------------------------------------------------

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

function validateArray(value: unknown, args: Schema, path: string): true | ArgError {
  if (!isArrayLike(value)) return typeError(path, "array");
  const list = toList(value);
  if (args.items) {
    for (const [i, item] of list.entries()) {
      const r = validateValue(item, args.items, `${path}[${i}]`);
      if (r !== true) return r;
    }
  }
  if (args.minItems !== undefined && list.length < args.minItems) {
    const n = args.minItems;
    return fail("rest_too_few_items", `${path} must contain at least ${numberFormat(n)} ${plural(n, "item", "items")}.`);
  }
  if (args.maxItems !== undefined && list.length > args.maxItems) {
    const n = args.maxItems;
    return fail("rest_too_many_items", `${path} must contain at most ${numberFormat(n)} ${plural(n, "item", "items")}.`);
  }
  if (args.uniqueItems && !hasUniqueItems(list)) return fail("rest_duplicate_items", `${path} has duplicate items.`);
  return true;
}

function hasUniqueItems(list: readonly unknown[]): boolean {
  const seen = new Set<string>();
  for (const item of list) {
    const key = uniqueKey(item);
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

/** First patternProperties schema whose pattern matches the property name. */
function patternSchema(property: string, args: Schema): Schema | undefined {
  for (const [pattern, schema] of Object.entries(args.patternProperties ?? {})) {
    if (matchesPattern(pattern, property)) return schema;
  }
  return undefined;
}

function ownSchema(map: Record<string, Schema> | undefined, key: string): Schema | undefined {
  return map !== undefined && Object.hasOwn(map, key) ? map[key] : undefined;
}

function validateObject(value: unknown, args: Schema, path: string): true | ArgError {
  if (!isObjectLike(value)) return typeError(path, "object");
  const entries = toEntries(value);
  const present = new Set(entries.map(([k]) => k));
  if (Array.isArray(args.required)) {
    for (const name of args.required) {
      if (!present.has(name)) return fail("rest_property_required", `${name} is a required property of ${path}.`);
    }
  } else if (args.properties) {
    for (const [name, prop] of Object.entries(args.properties)) {
      if (prop.required === true && !present.has(name)) {
        return fail("rest_property_required", `${name} is a required property of ${path}.`);
      }
    }
  }
  for (const [property, v] of entries) {
    const child = ownSchema(args.properties, property) ?? patternSchema(property, args);
    if (child) {
      const r = validateValue(v, child, `${path}[${property}]`);
      if (r !== true) return r;
      continue;
    }
    if (args.additionalProperties === false) {
      // WordPress names the bare property here, not its path.
      return fail("rest_additional_properties_forbidden", `${property} is not a valid property of Object.`);
    }
    if (typeof args.additionalProperties === "object") {
      const r = validateValue(v, args.additionalProperties, `${path}[${property}]`);
      if (r !== true) return r;
    }
  }
  if (args.minProperties !== undefined && entries.length < args.minProperties) {
    const n = args.minProperties;
    return fail("rest_too_few_properties", `${path} must contain at least ${numberFormat(n)} ${plural(n, "property", "properties")}.`);
  }
  if (args.maxProperties !== undefined && entries.length > args.maxProperties) {
    const n = args.maxProperties;
    return fail("rest_too_many_properties", `${path} must contain at most ${numberFormat(n)} ${plural(n, "property", "properties")}.`);
  }
  return true;
}

/** Numbers and integers: numeric, multipleOf, then bounds (so bounds come before the integer check). */
function validateNumber(value: unknown, args: Schema, path: string, typeName: "number" | "integer"): true | ArgError {
  if (!isNumeric(value)) return typeError(path, typeName);
  const n = toFloat(value);
  if (args.multipleOf !== undefined && n % args.multipleOf !== 0) {
    return fail("rest_invalid_multiple", `${path} must be a multiple of ${phpString(args.multipleOf)}.`);
  }
  const { minimum: min, maximum: max } = args;
  const exMin = Boolean(args.exclusiveMinimum), exMax = Boolean(args.exclusiveMaximum);
  if (min !== undefined && max === undefined) {
    if (exMin && n <= min) return fail("rest_out_of_bounds", `${path} must be greater than ${phpIntFormat(min)}`);
    if (!exMin && n < min) return fail("rest_out_of_bounds", `${path} must be greater than or equal to ${phpIntFormat(min)}`);
  }
  if (max !== undefined && min === undefined) {
    if (exMax && n >= max) return fail("rest_out_of_bounds", `${path} must be less than ${phpIntFormat(max)}`);
    if (!exMax && n > max) return fail("rest_out_of_bounds", `${path} must be less than or equal to ${phpIntFormat(max)}`);
  }
  if (min !== undefined && max !== undefined) {
    const below = exMin ? n <= min : n < min;
    const above = exMax ? n >= max : n > max;
    if (below || above) {
      const lo = exMin ? "exclusive" : "inclusive", hi = exMax ? "exclusive" : "inclusive";
      return fail("rest_out_of_bounds", `${path} must be between ${phpIntFormat(min)} (${lo}) and ${phpIntFormat(max)} (${hi})`);
    }
  }
  return true;
}

function validateString(value: unknown, args: Schema, path: string): true | ArgError {
  if (typeof value !== "string") return typeError(path, "string");
  const length = [...value].length; // mb_strlen counts code points
  if (args.minLength !== undefined && length < args.minLength) {
    const n = args.minLength;
    return fail("rest_too_short", `${path} must be at least ${numberFormat(n)} ${plural(n, "character", "characters")} long.`);
  }
  if (args.maxLength !== undefined && length > args.maxLength) {
    const n = args.maxLength;
    return fail("rest_too_long", `${path} must be at most ${numberFormat(n)} ${plural(n, "character", "characters")} long.`);
  }
  if (args.pattern !== undefined && !matchesPattern(args.pattern, value)) {
    return fail("rest_invalid_pattern", `${path} does not match pattern ${args.pattern}.`);
  }
  return true;
}

/** `rest_validate_enum`: compares the sanitized value; the message lists the values as PHP prints them. */
function validateEnum(value: unknown, args: Schema, path: string, values: readonly unknown[]): true | ArgError {
  const sanitized = sanitizeValue(value, args, path);
  if (sanitized instanceof SchemaError) return sanitized;
  if (values.some((e) => valuesEqual(sanitized, e))) return true;
  const encoded = values.map((e) => (isScalar(e) ? phpString(e) : phpJsonEncode(e)));
  if (encoded.length === 1) return fail("rest_not_in_enum", `${path} is not ${encoded[0]}.`);
  return fail("rest_not_in_enum", `${path} is not one of ${sprintfList(encoded)}.`);
}

/** `format` applies only to strings, or to schemas without a type. */
function validateFormat(value: unknown, format: Schema["format"], path: string): true | ArgError {
  switch (format) {
    case "hex-color": return isHexColor(value) ? true : fail("rest_invalid_hex_color", "Invalid hex color.");
    case "date-time": return isDateTime(value) ? true : fail("rest_invalid_date", "Invalid date.");
    case "email": return isEmail(value) ? true : fail("rest_invalid_email", "Invalid email address.");
    case "ip": return isIpAddress(value) ? true : fail("rest_invalid_ip", `${path} is not a valid IP address.`);
    case "uuid": return isUuid(value) ? true : fail("rest_invalid_uuid", `${path} is not a valid UUID.`);
    default: return true; // uri, text-field, textarea-field: sanitized, never rejected
  }
}

/** `rest_validate_value_from_schema`. `path` is the param name or nested path (`include[2]`). */
export function validateValue(value: unknown, schema: Schema, path: string): true | ArgError {
  const resolved = resolveCombinators(value, schema, path);
  if (resolved instanceof SchemaError) return resolved;
  let args = resolved.args;
  let type = args.type;
  if (Array.isArray(type)) {
    const best = bestType(value, type);
    if (best === undefined) return typeError(path, type.join(","));
    type = best;
    args = { ...args, type };
  }
  let r: true | ArgError = true;
  switch (type) {
    case "null": r = value === null || value === undefined ? true : typeError(path, "null"); break;
    case "boolean": r = isBooleanLike(value) ? true : typeError(path, "boolean"); break;
    case "object": r = validateObject(value, args, path); break;
    case "array": r = validateArray(value, args, path); break;
    case "number": r = validateNumber(value, args, path, "number"); break;
    case "string": r = validateString(value, args, path); break;
    case "integer":
      r = validateNumber(value, args, path, "integer");
      if (r === true && !isIntegerLike(value)) r = typeError(path, "integer");
      break;
  }
  if (r !== true) return r;
  if (args.enum && args.enum.length > 0) {
    const e = validateEnum(value, args, path, args.enum);
    if (e !== true) return e;
  }
  if (args.format !== undefined && (type === undefined || type === "string")) {
    return validateFormat(value, args.format, path);
  }
  return true;
}

// ---- Sanitizing ---------------------------------------------------------------------------

function sanitizeFormat(value: unknown, format: NonNullable<Schema["format"]>): string {
  switch (format) {
    case "hex-color": return sanitizeHexColor(value);
    case "uri": return sanitizeUrl(value);
    case "textarea-field": return sanitizeTextField(value, true);
    default: return sanitizeTextField(value); // date-time, email, ip, uuid, text-field
  }
}

/**
 * `rest_sanitize_value_from_schema`: coerces an already validated value. Returns an ArgError
 * only where WordPress does (no matching anyOf/oneOf branch, duplicate items after coercion).
 */
export function sanitizeValue(value: unknown, schema: Schema, path: string): unknown {
  const resolved = resolveCombinators(value, schema, path);
  if (resolved instanceof SchemaError) return resolved;
  let args = resolved.args;
  for (const m of resolved.matched) {
    value = sanitizeValue(value, m, path);
    if (value instanceof SchemaError) return value;
  }
  let type = args.type;
  if (Array.isArray(type)) {
    const best = bestType(value, type);
    if (best === undefined) return null;
    type = best;
    args = { ...args, type };
  }
  switch (type) {
    case "array": {
      const list = toList(value);
      const items = args.items;
      if (items && Object.keys(items).length > 0) {
        for (const [i, item] of list.entries()) {
          const s = sanitizeValue(item, items, `${path}[${i}]`);
          if (s instanceof SchemaError) return s;
          list[i] = s;
        }
      }
      if (args.uniqueItems && !hasUniqueItems(list)) return fail("rest_duplicate_items", `${path} has duplicate items.`);
      return list;
    }
    case "object": {
      const out: PlainObject = {};
      for (const [property, v] of toEntries(value)) {
        const child = ownSchema(args.properties, property) ?? patternSchema(property, args)
          ?? (typeof args.additionalProperties === "object" ? args.additionalProperties : undefined);
        if (child) {
          const s = sanitizeValue(v, child, `${path}[${property}]`);
          if (s instanceof SchemaError) return s;
          out[property] = s;
        } else if (args.additionalProperties !== false) {
          out[property] = v;
        }
      }
      // A PHP list stays a list when no key was dropped (JSON encodes it as an array again).
      const keys = Object.keys(out);
      if (Array.isArray(value) && keys.length === value.length && keys.every((k, i) => k === String(i))) {
        return Object.values(out);
      }
      return out;
    }
    case "null": return null;
    case "integer": return toInt(value);
    case "number": return toFloat(value);
    case "boolean": return sanitizeBoolean(value);
  }
  if (args.format !== undefined && (type === undefined || type === "string")) return sanitizeFormat(value, args.format);
  if (type === "string") return phpString(value);
  return value;
}

// ---- Request arguments --------------------------------------------------------------------

const BODY_METHODS: ReadonlySet<Method> = new Set<Method>(["POST", "PUT", "PATCH", "DELETE"]);

/** `rest_convert_error_to_response(...)->get_data()` of an inner error. */
function detail(e: ArgError): { code: string; message: string; data: unknown } {
  return { code: e.code, message: e.message, data: e.data ?? null };
}

function isAbsent(v: unknown): boolean {
  return v === null || v === undefined;
}

/**
 * Merges sources by WordPress priority (json > body > query > url > defaults; defaults only
 * for args with a default), checks required args (null counts as missing), runs explicit
 * validate callbacks in registration order, then sanitizes every supplied arg by its schema
 * (type-only args are validated+sanitized together here; ArgSchema.sanitize runs after),
 * returning the coerced params or the first failing phase's WordPress error. Unknown params
 * pass through untouched. `sent` is every param name the client supplied (any source but defaults).
 */
export function processArgs(
  args: Record<string, ArgSchema>,
  sources: ParamSources,
  request: Omit<ArgCheckRequest, "params">,
): { ok: true; params: Record<string, unknown>; sent: Set<string> } | { ok: false; error: WpError } {
  // Copies, because sanitizing rewrites each source in place as WordPress does.
  const order: Record<string, unknown>[] = [];
  if (sources.json) order.push({ ...sources.json });
  if (sources.body && BODY_METHODS.has(request.method)) order.push({ ...sources.body });
  order.push({ ...sources.query }, { ...sources.url });
  const sent = new Set<string>();
  for (const source of order) for (const key of Object.keys(source)) sent.add(key);
  const defaults: Record<string, unknown> = {};
  for (const [name, arg] of Object.entries(args)) {
    if (!isAbsent(arg.default)) defaults[name] = copyOf(arg.default);
  }
  order.push(defaults);

  // get_param: the first source holding a non-null value.
  const getParam = (key: string): unknown => {
    for (const source of order) {
      if (Object.hasOwn(source, key) && !isAbsent(source[key])) return source[key];
    }
    return null;
  };
  const merged = (): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const source of order) {
      for (const [key, v] of Object.entries(source)) {
        if (v !== undefined && !Object.hasOwn(out, key)) out[key] = getParam(key);
      }
    }
    return out;
  };
  const check: ArgCheckRequest = { ...request, params: merged() };

  // has_valid_params: required first (cheaper), then explicit validate callbacks only.
  const missing = Object.entries(args).filter(([key, arg]) => arg.required === true && isAbsent(getParam(key))).map(([key]) => key);
  if (missing.length > 0) {
    return {
      ok: false,
      error: { code: "rest_missing_callback_param", message: `Missing parameter(s): ${missing.join(", ")}`, data: { status: 400, params: missing } },
    };
  }
  const invalid = new Map<string, string>();
  const details = new Map<string, ReturnType<typeof detail>>();
  for (const [key, arg] of Object.entries(args)) {
    const value = getParam(key);
    if (isAbsent(value) || !arg.validate) continue;
    const r: unknown = arg.validate(value, check, key);
    if (r === false) invalid.set(key, "Invalid parameter.");
    else if (isArgError(r)) { invalid.set(key, r.message); details.set(key, detail(r)); }
  }
  if (invalid.size > 0) return { ok: false, error: invalidParams(invalid, details) };

  // sanitize_params: every occurrence in every source, in source order (defaults included).
  for (const source of order) {
    for (const [key, value] of Object.entries(source)) {
      if (!Object.hasOwn(args, key)) continue;
      const arg = args[key];
      let v: unknown = value;
      if (arg.type !== undefined && !arg.skipValidation) {
        const checked = source === defaults ? checkedDefault(arg, key) : schemaChecked(v, arg, key);
        if ("error" in checked) { invalid.set(key, checked.error.message); details.set(key, detail(checked.error)); continue; }
        v = source === defaults ? copyOf(checked.value) : checked.value;
      }
      if (arg.sanitize) {
        const s = arg.sanitize(v, check, key);
        if (isArgError(s)) { invalid.set(key, s.message); details.set(key, detail(s)); continue; }
        v = s;
      }
      source[key] = v;
      check.params[key] = getParam(key); // later callbacks see earlier coercions, as in WordPress
    }
  }
  if (invalid.size > 0) return { ok: false, error: invalidParams(invalid, details) };
  return { ok: true, params: merged(), sent };
}

type Checked = { value: unknown } | { error: ArgError };

/** The value after its schema's validation and sanitizing (`rest_validate_value_from_schema`, then `rest_sanitize_value_from_schema`). */
function schemaChecked(value: unknown, arg: ArgSchema, key: string): Checked {
  const valid = validateValue(value, arg, key);
  if (valid !== true) return { error: valid };
  const sanitized = sanitizeValue(value, arg, key);
  return sanitized instanceof SchemaError ? { error: sanitized } : { value: sanitized };
}

/**
 * A default's schema check: the same on every request, so worked out once per argument and name
 * (a route has dozens of defaulted arguments; checking them all on every request was a third of
 * what the REST layer cost per read). Kept with the default it was made from.
 */
const checkedDefaults = new WeakMap<ArgSchema, Map<string, { from: unknown; checked: Checked }>>();
function checkedDefault(arg: ArgSchema, key: string): Checked {
  let byName = checkedDefaults.get(arg);
  if (!byName) checkedDefaults.set(arg, (byName = new Map()));
  let entry = byName.get(key);
  if (!entry || entry.from !== arg.default) byName.set(key, (entry = { from: arg.default, checked: schemaChecked(copyOf(arg.default), arg, key) }));
  return entry.checked;
}

/** Sanitizing rewrites arrays and objects in place: each request gets its own copy. */
const copyOf = <T>(value: T): T => (value !== null && typeof value === "object" ? structuredClone(value) : value);

function invalidParams(invalid: Map<string, string>, details: Map<string, unknown>): WpError {
  return {
    code: "rest_invalid_param",
    message: `Invalid parameter(s): ${[...invalid.keys()].join(", ")}`,
    // An empty PHP array encodes as [] — WordPress sends that when no param has details.
    data: { status: 400, params: Object.fromEntries(invalid), details: details.size > 0 ? Object.fromEntries(details) : [] },
  };
}

/**
 * A validate callback equal to WordPress's `rest_validate_request_arg`: checks the value against
 * the arg's own schema in the validate phase (as `page`/`per_page` do), so a bad value there
 * stops the request before type-only args are looked at.
 */
export function validatedBySchema<T extends ArgSchema>(schema: T): T {
  const { validate: _ignored, sanitize: _alsoIgnored, ...plain } = schema;
  return {
    ...schema,
    validate: (value: unknown, _request: ArgCheckRequest, name: string) => {
      const r = validateValue(value, plain, name);
      return r === true ? undefined : r;
    },
  };
}
