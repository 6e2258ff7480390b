// lang/v1: Polylang's languages and language settings (seed 000 §4.4).
import type { SiteRoute } from "../../route.ts";
import { languageRoutes } from "./languages.ts";
import { languageSettingsRoutes } from "./settings.ts";

export const languageNamespaceRoutes: SiteRoute[] = [...languageRoutes, ...languageSettingsRoutes];
