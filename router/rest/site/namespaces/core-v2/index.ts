// core/v2: the site's content (seed 000 §4.2), one declared resource per file beside its operations.
import type { SiteRoute } from "../../route.ts";
import { applicationPasswordRoutes } from "./application-passwords.ts";
import { mediaRoutes } from "./media.ts";
import { menuItemRoutes } from "./menu-items.ts";
import { menuRoutes } from "./menus.ts";
import { pageRoutes, postRoutes } from "./posts.ts";
import { settingsRoutes } from "./settings.ts";
import { statusRoutes } from "./statuses.ts";
import { taxonomyRoutes } from "./taxonomies.ts";
import { termRoutes } from "./terms.ts";
import { typeRoutes } from "./types.ts";
import { userRoutes } from "./users.ts";

export const coreRoutes: SiteRoute[] = [
  ...postRoutes, ...pageRoutes, ...mediaRoutes, ...menuItemRoutes, ...menuRoutes,
  ...typeRoutes, ...statusRoutes, ...taxonomyRoutes, ...termRoutes, ...userRoutes, ...applicationPasswordRoutes, ...settingsRoutes,
];
