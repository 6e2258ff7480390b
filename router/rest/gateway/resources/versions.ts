// Versions (/api/v2/versions, /api/v2/api-changes): the release line 5.3.0–5.3.19 with dates, and
// what changed in the API in which release (added, deprecated with its replacement, fixed,
// removed). Paths the seed does not show, in the API's style. Any signed-in user may read them.
import { GatewayApiChangesDocument, GatewayReleaseDocument, GatewayReleasesDocument } from "../../../../generated/graphql/operations.ts";
import { API_CHANGE_KINDS, API_CHANGE_SUBJECTS } from "../../../../lib/gateway/releases.ts";
import { itemResult } from "../formats.ts";
import { itemOperation } from "../openapi.ts";
import { GatewayProblem } from "../problems.ts";
import { resource } from "../resource.ts";
import { collectionRoute } from "../resource-routes.ts";
import { route, type GatewayRoute } from "../route.ts";

export const release = resource({
  name: "Release",
  description: "A release of the line 5.3; the item also lists its breakingChanges and apiChanges.",
  path: "/versions",
  properties: {
    id: { type: "string", field: "version", readOnly: true, description: "The version, e.g. 5.3.8 (the item's id)." },
    version: { type: "string", readOnly: true, filter: true, order: true, description: "Compared numerically: 5.3.10 after 5.3.9." },
    releasedOn: { type: "datetime", readOnly: true, filter: true, order: true },
    apiChangeCount: { type: "integer", readOnly: true, filter: true, order: true },
  },
});

export const apiChange = resource({
  name: "ApiChange",
  description: "One API change of a release: kind=deprecated lists what is deprecated and its replacement.",
  path: "/api-changes",
  properties: {
    id: { type: "integer", readOnly: true, filter: true, order: true },
    version: { type: "string", readOnly: true, filter: true, order: true },
    releasedOn: { type: "datetime", readOnly: true, filter: true, order: true },
    kind: { type: "enum", values: API_CHANGE_KINDS, readOnly: true, filter: true, order: true },
    subject: { type: "enum", values: API_CHANGE_SUBJECTS, readOnly: true, filter: true },
    target: { type: "string", readOnly: true, filter: true, description: "METHOD /path for routes, /path property for properties." },
    description: { type: "string", readOnly: true },
    replacement: { type: "string", readOnly: true, description: "For deprecations: what to use instead; null otherwise." },
  },
});

const withLists = { ...release, shown: [...release.shown, { name: "breakingChanges", field: "breakingChanges" }, { name: "apiChanges", field: "apiChanges" }] };
type Change = { replacement: string | null };
// replacement is null where nothing replaces the change's target.
const restChange = <T extends Change>(c: T) => c as T & { replacement: string };

export const VERSION_ROUTES: GatewayRoute[] = [
  collectionRoute(release, {
    operation: GatewayReleasesDocument,
    variables: (query) => query,
    page: (data) => ({ ...data.gatewayReleases, items: data.gatewayReleases.items.map((r) => ({ ...r, id: r.version })) }),
  }),
  route("/versions/{id}", [{
    methods: ["GET"], auth: true, negotiate: true, resource: release, openapi: itemOperation(release),
    handle: async (request, run) => {
      const found = (await run(GatewayReleaseDocument, { version: request.pathParams.id })).gatewayRelease;
      if (!found) throw new GatewayProblem(404, "Not Found");
      return itemResult(withLists, { ...found, id: found.version }, request.format);
    },
  }], { id: "[^/]+" }),
  collectionRoute(apiChange, {
    operation: GatewayApiChangesDocument,
    variables: (query) => query,
    page: (data) => ({ ...data.gatewayApiChanges, items: data.gatewayApiChanges.items.map(restChange) }),
  }),
];
