// core/v2/statuses: the post statuses the caller may see (recording 133: a visitor sees only
// `publish`), keyed by status, as WordPress's post statuses controller answers. Each endpoint is
// one typed operation of statuses.graphql.
import qs from "qs";
import { ListPostStatusesDocument, ReadPostStatusDocument, type PostStatusFieldsFragment } from "../../../../../generated/graphql/operations.ts";
import type { SiteRoute } from "../../route.ts";
import { op } from "../../kit/crud.ts";
import type { Resource } from "../../kit/resource.ts";
import { ALL, EDIT, editing, field, registryRoutes, VIEW_EDIT } from "./registrations.ts";

export const POST_STATUS: Resource<PostStatusFieldsFragment> = {
  title: "status",
  fields: {
    name: { schema: field("The title for the status.", "string", ALL), read: (s) => s.name },
    private: { schema: field("Whether posts with this status should be private.", "boolean", EDIT), read: (s) => s.private },
    protected: { schema: field("Whether posts with this status should be protected.", "boolean", EDIT), read: (s) => s.protected },
    public: { schema: field("Whether posts of this status should be shown in the front end of the site.", "boolean", VIEW_EDIT), read: (s) => s.public },
    queryable: { schema: field("Whether posts with this status should be publicly-queryable.", "boolean", VIEW_EDIT), read: (s) => s.queryable },
    show_in_list: { schema: field("Whether to include posts in the edit listing for their post type.", "boolean", EDIT), read: (s) => s.showInList },
    slug: { schema: field("An alphanumeric identifier for the status.", "string", ALL), read: (s) => s.slug },
    date_floating: { schema: field("Whether posts of this status may have floating published dates.", "boolean", VIEW_EDIT), read: (s) => s.dateFloating },
  },
  // Published posts are the posts collection itself; the others are that collection filtered by status.
  links: (s, view) => {
    const posts = view.urls.rest("/core/v2/posts");
    return { archives: [{ href: s.slug === "publish" ? posts : `${posts}?${qs.stringify({ status: s.slug })}` }] };
  },
};

export const statusRoutes: SiteRoute[] = registryRoutes({
  path: "/statuses", key: "status", keyArg: { description: "An alphanumeric identifier for the status.", type: "string" }, resource: POST_STATUS,
  list: op(ListPostStatusesDocument, (r) => ({ editing: editing(r) }), (d) => d.postStatuses!),
  read: op(ReadPostStatusDocument, (r) => ({ name: String(r.params.status) }), (d) => d.postStatus!),
});
