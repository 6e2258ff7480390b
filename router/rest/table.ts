// The route table mechanism shared by both REST surfaces: a route is data (a path pattern and
// its endpoints); matching, the Allow list, the index and batching are derived from the table.
// Each surface (WordPress-style site routes, the email gateway's /api/v2) supplies its own
// endpoint type: argument style, error shape and response shaping.
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface EndpointBase { methods: Method[] }

export interface Route<E extends EndpointBase> {
  /** Namespace the route belongs to ("core/v2"; "" for root-level routes). */
  namespace: string;
  /** Full pattern in WordPress's regex form, e.g. "/core/v2/posts/(?P<id>[\\d]+)". */
  pattern: string;
  endpoints: E[];
}

export interface RouteMatch<E extends EndpointBase> {
  route: Route<E>;
  /** The endpoint serving the method, if any (a route can match while the method does not). */
  endpoint?: E;
  /** Named path parameters, as strings. */
  pathParams: Record<string, string>;
}

interface Compiled<E extends EndpointBase> { route: Route<E>; regex: RegExp }

export class RouteTable<E extends EndpointBase> {
  readonly routes: Route<E>[];
  private readonly compiled: Compiled<E>[];

  constructor(routes: Route<E>[], options: { caseInsensitive?: boolean } = {}) {
    this.routes = routes;
    this.compiled = routes.map((route) => ({
      route,
      // WordPress writes named groups as (?P<name>…); JavaScript as (?<name>…). Matches are anchored.
      regex: new RegExp(`^${route.pattern.replace(/\(\?P</g, "(?<")}$`, options.caseInsensitive ? "i" : ""),
    }));
  }

  /** First route whose pattern matches the whole path; the endpoint for the method when there is one. */
  match(path: string, method: string): RouteMatch<E> | undefined {
    for (const { route, regex } of this.compiled) {
      const m = regex.exec(path);
      if (!m) continue;
      const endpoint = route.endpoints.find((e) => e.methods.includes(method as Method));
      return { route, endpoint, pathParams: { ...(m.groups ?? {}) } };
    }
    return undefined;
  }

  namespaces(): string[] {
    return [...new Set(this.routes.map((r) => r.namespace).filter(Boolean))];
  }
}
