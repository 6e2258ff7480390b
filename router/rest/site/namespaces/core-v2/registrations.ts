// What core/v2/types, statuses and taxonomies share: each answers registered objects (readonly
// fields), the list keyed by slug (an object even when empty, as WordPress makes sure), one by
// its name, with entry lists (labels, capabilities) as JSON objects.
import { route, type ArgSchema, type RestRequest, type SiteRoute } from "../../route.ts";
import { contextArg, type Args } from "../../kit/args.ts";
import { contextOf, opEndpoint, type Op } from "../../kit/crud.ts";
import { CURIES, itemSchema, present, type Context, type Links, type Resource, type View } from "../../kit/resource.ts";

export const ALL: Context[] = ["view", "edit", "embed"];
export const VIEW_EDIT: Context[] = ["view", "edit"];
export const EDIT: Context[] = ["edit"];

/** A registration's entry list (labels, capabilities) as the JSON object WordPress sends. */
export const entries = (list: readonly { key: string; value?: string | null; capability?: string }[]) =>
  Object.fromEntries(list.map((e) => [e.key, e.capability ?? e.value ?? null]));

/** A field of a registration: readonly, as these routes only read. */
export const field = (description: string, type: ArgSchema["type"], context: Context[], extra: Partial<ArgSchema> = {}): ArgSchema =>
  ({ description, type, context, readonly: true, ...extra });

/** The links of a registration that has items (post types, taxonomies): its collection and its items' route. */
export const registrationLinks = (collection: string) => (node: { restBase: string }, view: View): Links => ({
  collection: [{ href: view.urls.rest(`/core/v2${collection}`) }],
  "wp:items": [{ href: view.urls.rest(`/core/v2/${node.restBase}`) }],
  curies: CURIES,
});

/** Edit context asks the graph for what only editors see (and refuses those who may edit none). */
export const editing = (r: RestRequest) => contextOf(r) === "edit";

export interface RegistrySpec<Node extends { slug: string }> {
  /** Collection path under core/v2, e.g. "/types". */
  path: string;
  /** The item route's name argument, e.g. "type". */
  key: string;
  keyArg: ArgSchema;
  resource: Resource<Node>;
  /** List arguments besides `context`. */
  listArgs?: Args;
  list: Op<readonly Node[]>;
  read: Op<Node>;
}

/** `{path}` (every registration, keyed by slug) and `{path}/{name}`. */
export function registryRoutes<Node extends { slug: string }>(spec: RegistrySpec<Node>): SiteRoute[] {
  const schema = itemSchema(spec.resource);
  return [
    route("core/v2", spec.path, [
      opEndpoint({ methods: ["GET"], args: { context: contextArg(), ...spec.listArgs } }, spec.list, (nodes, r) =>
        ({ body: Object.fromEntries(nodes.map((n) => [n.slug, present(spec.resource, n, { context: contextOf(r), urls: r.urls })])) })),
    ], schema),
    route("core/v2", `${spec.path}/(?P<${spec.key}>[\\w-]+)`, [
      opEndpoint({ methods: ["GET"], args: { [spec.key]: spec.keyArg, context: contextArg() } }, spec.read, (node, r) =>
        ({ body: present(spec.resource, node, { context: contextOf(r), urls: r.urls }) })),
    ], schema),
  ];
}
