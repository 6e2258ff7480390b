// The site route table: every documented route, in the index's namespace order (seed 000 §1.2).
import type { SiteRoute } from "../route.ts";
import { batchRoutes } from "./batch.ts";
import { discoveryRoutes } from "./discovery.ts";
import { languageRoutes } from "./languages.ts";
import { mediaRoutes } from "../namespaces/core-v2/media.ts";
import { menuItemRoutes } from "../namespaces/core-v2/menu-items.ts";
import { menuRoutes } from "../namespaces/core-v2/menus.ts";
import { pageRoutes, postRoutes } from "../namespaces/core-v2/posts.ts";
import { settingsRoutes } from "./settings.ts";
import { statusRoutes } from "./statuses.ts";
import { taxonomyRoutes } from "./taxonomies.ts";
import { termRoutes } from "../namespaces/core-v2/terms.ts";
import { typeRoutes } from "./types.ts";
import { userRoutes } from "./users.ts";

export function siteRoutes(): SiteRoute[] {
  const routes: SiteRoute[] = [...batchRoutes, ...languageRoutes, ...postRoutes, ...pageRoutes, ...mediaRoutes, ...menuItemRoutes, ...menuRoutes,
    ...typeRoutes, ...statusRoutes, ...taxonomyRoutes, ...termRoutes, ...userRoutes, ...settingsRoutes];
  const namespaces = () => [...new Set(routes.map((r) => r.namespace).filter(Boolean))];
  return [...discoveryRoutes(namespaces), ...routes];
}
