// core/v2/taxonomies: the taxonomies the site exposes (category, post_tag, nav_menu), keyed by
// taxonomy, optionally only those of one post type, as WordPress's taxonomies controller answers.
import { CURIES } from "./links.ts";
import { gql } from "../../table.ts";
import { route, type ArgSchema, type RestRequest, type SiteRoute } from "../route.ts";
import { contextArg } from "./posts.ts";
import { entries, type Entry } from "./types.ts";

const NS = "core/v2";
type Body = Record<string, unknown>;

interface GraphTaxonomy {
  slug: string; name: string; description: string; types: string[]; hierarchical: boolean; restBase: string; restNamespace: string;
  showCloud: boolean; capabilities: Entry[]; labels: Entry[];
  visibility: { public: boolean; publiclyQueryable: boolean; showAdminColumn: boolean; showInNavMenus: boolean; showInQuickEdit: boolean; showUi: boolean };
}

const TAXONOMY_FIELDS = `slug name description types hierarchical restBase restNamespace showCloud
  capabilities { key capability } labels { key value }
  visibility { public publiclyQueryable showAdminColumn showInNavMenus showInQuickEdit showUi }`;

function taxonomyBody(t: GraphTaxonomy, context: string, r: RestRequest): Body {
  const edit = context === "edit";
  const v = t.visibility;
  const body: Body = context === "embed"
    ? { name: t.name, slug: t.slug, rest_base: t.restBase, rest_namespace: t.restNamespace }
    : {
      name: t.name, slug: t.slug,
      ...(edit ? { capabilities: entries(t.capabilities) } : {}),
      description: t.description,
      ...(edit ? { labels: entries(t.labels) } : {}),
      types: t.types,
      ...(edit ? { show_cloud: t.showCloud } : {}),
      hierarchical: t.hierarchical, rest_base: t.restBase, rest_namespace: t.restNamespace,
      ...(edit ? {
        visibility: {
          public: v.public, publicly_queryable: v.publiclyQueryable, show_admin_column: v.showAdminColumn,
          show_in_nav_menus: v.showInNavMenus, show_in_quick_edit: v.showInQuickEdit, show_ui: v.showUi,
        },
      } : {}),
    };
  body._links = {
    collection: [{ href: r.urls.rest("/core/v2/taxonomies") }],
    "wp:items": [{ href: r.urls.rest(`/core/v2/${t.restBase}`) }],
    curies: CURIES,
  };
  return body;
}

const LIST = gql`query ListTaxonomies($postType: String, $editing: Boolean) { taxonomies(postType: $postType, editing: $editing) { ${TAXONOMY_FIELDS} } }`;
const READ = gql`query ReadTaxonomy($name: String!, $editing: Boolean) { taxonomy(name: $name, editing: $editing) { ${TAXONOMY_FIELDS} } }`;

const taxonomyArg: ArgSchema = { description: "An alphanumeric identifier for the taxonomy.", type: "string" };

export const taxonomyRoutes: SiteRoute[] = [
  route(NS, "/taxonomies", [{
    methods: ["GET"], operation: LIST,
    args: { context: contextArg(), type: { description: "Limit results to taxonomies associated with a specific post type.", type: "string" } },
    variables: (r) => ({ postType: r.params.type ?? null, editing: r.params.context === "edit" }),
    // An empty result is still a JSON object, as WordPress makes sure.
    respond: (data, r) => ({ body: Object.fromEntries((data.taxonomies as GraphTaxonomy[]).map((t) => [t.slug, taxonomyBody(t, r.params.context, r)])) }),
  }]),
  route(NS, "/taxonomies/(?P<taxonomy>[\\w-]+)", [{
    methods: ["GET"], args: { taxonomy: taxonomyArg, context: contextArg() }, operation: READ,
    variables: (r) => ({ name: r.params.taxonomy, editing: r.params.context === "edit" }),
    respond: (data, r) => ({ body: taxonomyBody(data.taxonomy as GraphTaxonomy, r.params.context, r) }),
  }]),
];
