// The site route table: every documented route, in the index's namespace order (seed 000 §1.2).
import type { SiteRoute } from "../route.ts";
import { batchRoutes } from "./batch.ts";
import { discoveryRoutes } from "./discovery.ts";
import { languageRoutes } from "../namespaces/lang-v1/languages.ts";
import { languageSettingsRoutes } from "../namespaces/lang-v1/settings.ts";
import { mediaRoutes } from "../namespaces/core-v2/media.ts";
import { menuItemRoutes } from "../namespaces/core-v2/menu-items.ts";
import { menuRoutes } from "../namespaces/core-v2/menus.ts";
import { pageRoutes, postRoutes } from "../namespaces/core-v2/posts.ts";
import { settingsRoutes } from "../namespaces/core-v2/settings.ts";
import { statusRoutes } from "../namespaces/core-v2/statuses.ts";
import { taxonomyRoutes } from "../namespaces/core-v2/taxonomies.ts";
import { termRoutes } from "../namespaces/core-v2/terms.ts";
import { typeRoutes } from "../namespaces/core-v2/types.ts";
import { userRoutes } from "../namespaces/core-v2/users.ts";

export function siteRoutes(): SiteRoute[] {
  const routes: SiteRoute[] = [...batchRoutes, ...languageRoutes, ...languageSettingsRoutes, ...postRoutes, ...pageRoutes, ...mediaRoutes, ...menuItemRoutes, ...menuRoutes,
    ...typeRoutes, ...statusRoutes, ...taxonomyRoutes, ...termRoutes, ...userRoutes, ...settingsRoutes];
  const namespaces = () => [...new Set(routes.map((r) => r.namespace).filter(Boolean))];
  return [...discoveryRoutes(namespaces), ...routes];
}
