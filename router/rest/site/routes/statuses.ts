// core/v2/statuses: the post statuses the caller may see (recording 133: a visitor sees only
// `publish`), keyed by status, as WordPress's post statuses controller answers.
import qs from "qs";
import { gql } from "../../table.ts";
import { route, type ArgSchema, type RestRequest, type SiteRoute } from "../route.ts";
import { contextArg } from "./posts.ts";

const NS = "core/v2";
type Body = Record<string, unknown>;

interface GraphStatus {
  slug: string; name: string; private: boolean; protected: boolean; public: boolean; queryable: boolean; showInList: boolean; dateFloating: boolean;
}

const STATUS_FIELDS = "slug name private protected public queryable showInList dateFloating";

function statusBody(s: GraphStatus, context: string, r: RestRequest): Body {
  const edit = context === "edit";
  const body: Body = context === "embed"
    ? { name: s.name, slug: s.slug }
    : {
      name: s.name,
      ...(edit ? { private: s.private, protected: s.protected } : {}),
      public: s.public, queryable: s.queryable,
      ...(edit ? { show_in_list: s.showInList } : {}),
      slug: s.slug, date_floating: s.dateFloating,
    };
  // Published posts are the posts collection itself; the others are that collection filtered by status.
  const posts = r.urls.rest("/core/v2/posts");
  body._links = { archives: [{ href: s.slug === "publish" ? posts : `${posts}?${qs.stringify({ status: s.slug })}` }] };
  return body;
}

const LIST = gql`query ListPostStatuses($editing: Boolean) { postStatuses(editing: $editing) { ${STATUS_FIELDS} } }`;
const READ = gql`query ReadPostStatus($name: String!) { postStatus(name: $name) { ${STATUS_FIELDS} } }`;

const statusArg: ArgSchema = { description: "An alphanumeric identifier for the status.", type: "string" };

export const statusRoutes: SiteRoute[] = [
  route(NS, "/statuses", [{
    methods: ["GET"], args: { context: contextArg() }, operation: LIST,
    variables: (r) => ({ editing: r.params.context === "edit" }),
    respond: (data, r) => ({ body: Object.fromEntries((data.postStatuses as GraphStatus[]).map((s) => [s.slug, statusBody(s, r.params.context, r)])) }),
  }]),
  route(NS, "/statuses/(?P<status>[\\w-]+)", [{
    methods: ["GET"], args: { status: statusArg, context: contextArg() }, operation: READ,
    variables: (r) => ({ name: r.params.status }),
    respond: (data, r) => ({ body: statusBody(data.postStatus as GraphStatus, r.params.context, r) }),
  }]),
];
