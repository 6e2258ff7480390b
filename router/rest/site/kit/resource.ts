// A resource declared once, the way WordPress declares a controller's item schema: each field
// with its JSON schema (type, contexts, readonly), how it reads from the operation's node, and
// how it writes into the GraphQL input. Everything else derives from the declaration: the
// create/update arguments, the input mapping, the response (context filtering, key order,
// `_links`), and the `schema` that OPTIONS, `?context=help` and OpenAPI show.
import type { ArgSchema, ItemSchema, RestRequest, SiteUrls, ValidatedParams } from "../route.ts";
import { restFieldSchemas, restFieldsOf } from "./rest-fields.ts";

export type Context = "view" | "embed" | "edit";

/** What a field's reader and the links see besides the node. */
export interface View { context: Context; urls: SiteUrls }

export type Links = Record<string, unknown[]>;

/** The compact-rel declaration WordPress appends to every `_links` object that uses `wp:` rels. */
export const CURIES = [{ name: "wp", href: "https://api.w.org/{rel}", templated: true }];

export interface Field<Node> {
  /** The field's item-schema member: description, type, `context`, `readonly`, nested `properties`. */
  schema: ArgSchema;
  /** The value in a response, read from the node; the response keeps the declaration's order. */
  read?: (node: Node, view: View) => unknown;
  /** GraphQL input field it writes, or the field and a conversion where the value changes shape. */
  input?: string | [string, (value: unknown) => unknown];
  /** Argument behaviour beyond the schema (WordPress's arg_options: sanitize/validate callbacks). */
  arg?: Partial<ArgSchema>;
  /** Default applied on create only (WordPress adds schema defaults to create arguments only). */
  createDefault?: unknown;
  /** Required on create (and not on update). */
  requiredOnCreate?: boolean;
  /** Only accepted on create. */
  createOnly?: boolean;
}

export interface Resource<Node> {
  /** The schema's title (WordPress: the post type, "nav_menu_item", "language"…). */
  title: string;
  /** Fields in the order of WordPress's item schema (the arguments and `schema` keep it). */
  fields: Record<string, Field<Node>>;
  /** Response key order, where the controller's prepare_item_for_response differs from its schema's. */
  responseOrder?: string[];
  /** `_links` of the node; none in a context where the controller answers none. */
  links?: (node: Node, view: View) => Links | undefined;
}

/** Copies a schema as data: callbacks and the REST layer's own switches dropped. */
function plainSchema(schema: ArgSchema): ArgSchema {
  const { validate: _v, sanitize: _s, skipValidation: _k, required: _r, ...rest } = schema;
  const out: ArgSchema = { ...rest };
  if (rest.properties) out.properties = Object.fromEntries(Object.entries(rest.properties).map(([k, v]) => [k, plainSchema(v)]));
  if (rest.items) out.items = plainSchema(rest.items);
  return out;
}

/** WordPress's public item schema of the resource. */
export function itemSchema<Node>(resource: Resource<Node>): ItemSchema {
  return {
    $schema: "http://json-schema.org/draft-04/schema#",
    title: resource.title,
    type: "object",
    properties: {
      ...Object.fromEntries(Object.entries(resource.fields).map(([name, f]) => [name, plainSchema(f.schema)])),
      ...restFieldSchemas(resource.title),
    },
  };
}

/**
 * The create or update arguments (WordPress's get_endpoint_args_for_item_schema): every field
 * that is not readonly, with create defaults and required flags on create only.
 */
export function writeArgs<Node>(resource: Resource<Node>, mode: "create" | "update"): Record<string, ArgSchema> {
  const args: Record<string, ArgSchema> = {};
  for (const [name, f] of Object.entries(resource.fields)) {
    if (f.schema.readonly || (f.createOnly && mode === "update")) continue;
    const { context: _c, readonly: _r, ...schema } = f.schema;
    args[name] = {
      ...schema, ...f.arg,
      ...(mode === "create" && f.createDefault !== undefined ? { default: f.createDefault } : {}),
      ...(mode === "create" && f.requiredOnCreate ? { required: true } : {}),
    };
  }
  return args;
}

/** The GraphQL input from the fields the request sent (absent and null values left out). */
export function writeInput<Node>(resource: Resource<Node>, request: Pick<RestRequest, "params" | "sent">): Record<string, unknown> {
  return mapInput(resource.fields, request.params, (name) => request.sent.has(name));
}

/** REST names → GraphQL input fields, for writes and list filters alike. */
export function mapInput(
  fields: Record<string, Pick<Field<unknown>, "input">>, params: ValidatedParams, take: (name: string) => boolean,
): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [name, { input: mapping }] of Object.entries(fields)) {
    if (!mapping || !take(name) || params[name] === undefined || params[name] === null) continue;
    const [field, convert] = typeof mapping === "string" ? [mapping, (v: unknown) => v] : mapping;
    const value = convert(params[name]);
    if (value !== undefined) input[field] = value;
  }
  return input;
}

const inContext = (schema: ArgSchema | undefined, context: Context) => !schema?.context || schema.context.includes(context);

/** WordPress's filter_response_by_context: members whose schema does not list the context go, at any depth. */
function filterByContext(value: unknown, schema: ArgSchema, context: Context): unknown {
  const { properties } = schema;
  if (!properties || !value || typeof value !== "object" || Array.isArray(value)) return value;
  // A plain loop: every field of every object of every answer passes here.
  const kept: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const property = properties[key];
    if (!inContext(property, context)) continue;
    const out = property ? filterByContext(v, property, context) : v;
    // A stored key "__proto__" (post meta is the client's) stays a member, as Object.fromEntries keeps it.
    if (key === "__proto__") Object.defineProperty(kept, key, { value: out, enumerable: true, writable: true, configurable: true });
    else kept[key] = out;
  }
  return kept;
}

/** The node as WordPress answers it in a context: declared (or response) order, fields of the context, then `_links`. */
export function present<Node>(resource: Resource<Node>, node: Node, view: View, options: { links?: boolean } = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const name of resource.responseOrder ?? Object.keys(resource.fields)) {
    const f = resource.fields[name];
    if (!f?.read || !inContext(f.schema, view.context)) continue;
    const value = f.read(node, view);
    if (value !== undefined) body[name] = filterByContext(value, f.schema, view.context);
  }
  // Fields other namespaces registered on the object type follow the resource's own (register_rest_field).
  for (const [name, f] of restFieldsOf(resource.title)) {
    if (!f.get || !inContext(f.schema, view.context)) continue;
    const value = f.get(node as Readonly<Record<string, unknown>>, view);
    if (value !== undefined) body[name] = value;
  }
  const links = options.links !== false ? resource.links?.(node, view) : undefined;
  if (links) body._links = links;
  return body;
}

/** Text fields of WordPress objects: `{raw, rendered}` where raw is edit-only and rendered readonly. */
export function renderedSchema(description: string, raw: string, rendered: string, contexts: { rendered?: Context[]; field?: Context[] } = {}): ArgSchema {
  return {
    description, type: "object", context: contexts.field ?? ["view", "edit", "embed"],
    properties: {
      raw: { description: raw, type: "string", context: ["edit"] },
      rendered: { description: rendered, type: "string", context: contexts.rendered ?? ["view", "edit", "embed"], readonly: true },
    },
  };
}
