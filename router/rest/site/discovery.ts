// Discovery, derived from the route table: the REST index (GET /) and each namespace's root
// (GET /core/v2 …). No second list of routes exists anywhere.
import { SiteIndexDocument } from "../../../generated/graphql/operations.ts";
import type { SiteRest } from "./dispatch.ts";
import type { ArgSchema, LocalEndpoint, SiteRoute, SiteUrls } from "./route.ts";

/** Keywords an index entry keeps (in the arg's own key order); `required` is appended last. */
const INDEX_KEYWORDS: ReadonlySet<string> = new Set([
  "title", "description", "default", "type", "format", "enum", "items", "properties", "additionalProperties",
  "patternProperties", "minProperties", "maxProperties", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
  "multipleOf", "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "anyOf", "oneOf",
]);

/** Nested schemas are copied as data (callbacks dropped). */
function plain(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(plain);
  if (!schema || typeof schema !== "object") return schema;
  return Object.fromEntries(Object.entries(schema)
    .filter(([k, v]) => typeof v !== "function" && k !== "skipValidation")
    .map(([k, v]) => [k, plain(v)]));
}

function indexArg(schema: ArgSchema): Record<string, unknown> {
  const entry: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) if (INDEX_KEYWORDS.has(key) && value !== undefined) entry[key] = plain(value);
  entry.required = schema.required ?? false;
  return entry;
}

/**
 * The index entry of one route: namespace, methods, endpoints (with args), the resource's
 * `schema` in the help context (OPTIONS and `?context=help`, as WordPress), and a self link
 * for routes without placeholders.
 */
export function routeEntry(route: SiteRoute, urls: SiteUrls, context = "view"): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    namespace: route.namespace,
    methods: [...new Set(route.endpoints.flatMap((e) => e.methods))],
    endpoints: route.endpoints.map((e) => {
      const args = Object.entries(e.args).map(([name, schema]) => [name, indexArg(schema)] as const);
      return {
        methods: e.methods,
        ...(e.allowBatch ? { allow_batch: { v1: true } } : {}),
        args: args.length ? Object.fromEntries(args) : [],
      };
    }),
  };
  if (context === "help" && route.schema) entry.schema = route.schema;
  if (!route.pattern.includes("(")) entry._links = { self: [{ href: urls.rest(route.pattern === "/" ? "/" : route.pattern) }] };
  return entry;
}

const CONTEXT_ARG: ArgSchema = { default: "view" };

const routesOf = (site: SiteRest, context: unknown, namespace?: string) =>
  Object.fromEntries(site.table.routes
    .filter((r) => namespace === undefined || r.namespace === namespace)
    .map((r) => [r.pattern, routeEntry(r, site.urls, String(context))]));


export function discoveryRoutes(namespaces: () => string[]): SiteRoute[] {
  const index: LocalEndpoint = {
    methods: ["GET"], args: { context: CONTEXT_ARG },
    handle: async (request, context, site) => {
      const info = (await site.query(SiteIndexDocument, {}, context))?.site;
      const home = site.urls.home;
      return {
        body: {
          name: info?.name ?? "", description: info?.description ?? "", url: info?.url ?? home, home: info?.home ?? home,
          gmt_offset: info?.gmtOffset ?? "0", timezone_string: info?.timezoneString ?? "",
          namespaces: namespaces(),
          authentication: {
            oauth2: {
              authorize: `${home}/oauth/authorize`, token: `${home}/oauth/token`, me: `${home}/oauth/me`,
              version: "2.0", software: "esg-site-federation",
            },
            "application-passwords": { endpoints: { authorization: `${home}/wp-admin/authorize-application.php` } },
          },
          routes: routesOf(site, request.params.context),
          site_logo: info?.logoId ?? 0, site_icon: info?.iconId ?? 0, site_icon_url: info?.iconUrl ?? "",
          _links: { help: [{ href: "https://developer.wordpress.org/rest-api/" }] },
        },
      };
    },
  };
  const routes: SiteRoute[] = [{ namespace: "", pattern: "/", endpoints: [index] }];
  for (const namespace of namespaces()) {
    const root: LocalEndpoint = {
      methods: ["GET"],
      args: { namespace: { default: namespace }, context: CONTEXT_ARG },
      handle: async (request, _context, site) => {
        const wanted = String(request.params.namespace);
        if (!site.table.namespaces().includes(wanted)) {
          return { status: 404, body: { code: "rest_invalid_namespace", message: "The specified namespace could not be found.", data: { status: 404 } } };
        }
        return { body: { namespace: wanted, routes: routesOf(site, request.params.context, wanted), _links: { up: [{ href: `${site.urls.restBase}/` }] } } };
      },
    };
    routes.push({ namespace, pattern: `/${namespace}`, endpoints: [root] });
  }
  return routes;
}
