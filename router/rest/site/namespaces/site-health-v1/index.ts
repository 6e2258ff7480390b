// site-health/v1 (WordPress core's WP_REST_Site_Health_Controller): each check is a GET route
// answering its result ({label, status, badge, description, actions, test}); directory-sizes
// answers the stored sizes. WordPress's routes in its order, then two checks WordPress runs on its
// Site Health screen rather than over REST (sql-server, file-uploads), because here the database
// and the uploads directory are what most needs checking. Administrators only; the extensions
// subgraph runs the checks (subgraphs/extensions/site-health).
import {
  SiteHealthDirectorySizesDocument, SiteHealthPermissionDocument, SiteHealthTestDocument, type SiteHealthTestName,
} from "../../../../../generated/graphql/operations.ts";
import { route, type SiteRoute } from "../../route.ts";
import { op, opEndpoint } from "../../kit/crud.ts";
import { allowedBy } from "../../kit/operation.ts";

const allowed = allowedBy(SiteHealthPermissionDocument, (d) => d.siteHealthViewerCan === true);

const testRoute = (path: string, test: SiteHealthTestName): SiteRoute => route("site-health/v1", `/tests/${path}`, [
  opEndpoint({ methods: ["GET"], args: {}, allowed }, op(SiteHealthTestDocument, () => ({ test }), (d) => d.siteHealthTest), (r) => ({
    body: { label: r.label, status: r.status.toLowerCase(), badge: { label: r.badge.label, color: r.badge.color }, description: r.description, actions: r.actions, test: r.test },
  })),
]);

export const siteHealthRoutes: SiteRoute[] = [
  testRoute("background-updates", "BACKGROUND_UPDATES"),
  testRoute("loopback-requests", "LOOPBACK_REQUESTS"),
  testRoute("https-status", "HTTPS_STATUS"),
  testRoute("dotorg-communication", "DOTORG_COMMUNICATION"),
  testRoute("authorization-header", "AUTHORIZATION_HEADER"),
  route("site-health/v1", "/directory-sizes", [
    opEndpoint({ methods: ["GET"], args: {}, allowed }, op(SiteHealthDirectorySizesDocument, () => ({}), (d) => d.siteHealthDirectorySizes), (s) => ({
      // WordPress starts the object with a `raw` of 0, then each size.
      body: { raw: 0, uploads_size: s.uploadsSize, database_size: s.databaseSize, total_size: s.totalSize },
    })),
  ]),
  testRoute("page-cache", "PAGE_CACHE"),
  testRoute("sql-server", "SQL_SERVER"),
  testRoute("file-uploads", "FILE_UPLOADS"),
];
