// The site route table: every documented route, in the index's namespace order (seed 000 §1.2).
import type { SiteRoute } from "../route.ts";
import { batchRoutes } from "./batch.ts";
import { discoveryRoutes } from "./discovery.ts";
import { languageRoutes } from "./languages.ts";
import { pageRoutes } from "./pages.ts";
import { postRoutes } from "./posts.ts";
import { termAndUserRoutes } from "./terms.ts";

export function siteRoutes(): SiteRoute[] {
  const routes: SiteRoute[] = [...batchRoutes, ...languageRoutes, ...postRoutes, ...pageRoutes, ...termAndUserRoutes];
  const namespaces = () => [...new Set(routes.map((r) => r.namespace).filter(Boolean))];
  return [...discoveryRoutes(namespaces), ...routes];
}
