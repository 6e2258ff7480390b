// lang/v1: Polylang's languages and language settings (seed 000 §4.4).
import type { SiteRoute } from "../../route.ts";
import { languageRoutes } from "./languages.ts";
import { languageSettingsRoutes } from "./settings.ts";
// Registers lang and translations on core/v2 posts, pages, categories and tags (Polylang's REST fields).
import "./rest-fields.ts";

export const languageNamespaceRoutes: SiteRoute[] = [...languageRoutes, ...languageSettingsRoutes];
