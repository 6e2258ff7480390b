// core/v2/types: the post types the site exposes, as WordPress's post types controller answers
// (an object keyed by type; capabilities, labels, supports and visibility in edit context only).
import { CURIES } from "./links.ts";
import { gql } from "../../table.ts";
import { route, type ArgSchema, type RestRequest, type SiteRoute } from "../route.ts";
import { contextArg } from "./posts.ts";

const NS = "core/v2";
type Body = Record<string, unknown>;

export interface Entry { key: string; value?: string | null; capability?: string }

interface GraphPostType {
  slug: string; name: string; description: string; hierarchical: boolean; hasArchive: boolean; icon: string | null;
  taxonomies: string[]; restBase: string; restNamespace: string; viewable: boolean; supports: string[];
  capabilities: Entry[]; labels: Entry[]; visibility: { showUi: boolean; showInNavMenus: boolean };
}

export const POST_TYPE_FIELDS = `slug name description hierarchical hasArchive icon taxonomies restBase restNamespace viewable supports
  capabilities { key capability } labels { key value } visibility { showUi showInNavMenus }`;

/** Key/value entries (labels, capabilities) as the JSON object WordPress sends. */
export const entries = (list: Entry[]) =>
  Object.fromEntries(list.map((e) => [e.key, e.capability ?? e.value ?? null]));

const curies = CURIES;

function postTypeBody(t: GraphPostType, context: string, r: RestRequest): Body {
  const edit = context === "edit";
  const body: Body = context === "embed"
    ? { name: t.name, slug: t.slug, icon: t.icon, rest_base: t.restBase, rest_namespace: t.restNamespace }
    : {
      ...(edit ? { capabilities: entries(t.capabilities) } : {}),
      description: t.description, hierarchical: t.hierarchical, has_archive: t.hasArchive,
      ...(edit ? {
        visibility: { show_in_nav_menus: t.visibility.showInNavMenus, show_ui: t.visibility.showUi },
        viewable: t.viewable, labels: entries(t.labels),
      } : {}),
      name: t.name, slug: t.slug, icon: t.icon,
      ...(edit ? { supports: Object.fromEntries(t.supports.map((s) => [s, true])) } : {}),
      taxonomies: t.taxonomies, rest_base: t.restBase, rest_namespace: t.restNamespace,
    };
  body._links = {
    collection: [{ href: r.urls.rest("/core/v2/types") }],
    "wp:items": [{ href: r.urls.rest(`/core/v2/${t.restBase}`) }],
    curies,
  };
  return body;
}

const LIST = gql`query ListPostTypes($editing: Boolean) { postTypes(editing: $editing) { ${POST_TYPE_FIELDS} } }`;
const READ = gql`query ReadPostType($name: String!, $editing: Boolean) { postType(name: $name, editing: $editing) { ${POST_TYPE_FIELDS} } }`;

const typeArg: ArgSchema = { description: "An alphanumeric identifier for the post type.", type: "string" };

export const typeRoutes: SiteRoute[] = [
  route(NS, "/types", [{
    methods: ["GET"], args: { context: contextArg() }, operation: LIST,
    variables: (r) => ({ editing: r.params.context === "edit" }),
    respond: (data, r) => ({ body: Object.fromEntries((data.postTypes as GraphPostType[]).map((t) => [t.slug, postTypeBody(t, r.params.context, r)])) }),
  }]),
  route(NS, "/types/(?P<type>[\\w-]+)", [{
    methods: ["GET"], args: { type: typeArg, context: contextArg() }, operation: READ,
    variables: (r) => ({ name: r.params.type, editing: r.params.context === "edit" }),
    respond: (data, r) => ({ body: postTypeBody(data.postType as GraphPostType, r.params.context, r) }),
  }]),
];
