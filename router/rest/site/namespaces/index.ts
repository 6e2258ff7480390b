// The site route table: one folder per namespace. The index, namespace roots, validation, batch
// and OpenAPI all derive from it; the index lists namespaces in NAMESPACE_ORDER.
import { discoveryRoutes } from "../discovery.ts";
import type { SiteRoute } from "../route.ts";
import { batchRoutes } from "./batch-v1/batch.ts";
import { coreRoutes } from "./core-v2/index.ts";
import { languageNamespaceRoutes } from "./lang-v1/index.ts";
import { oembedRoutes } from "./oembed-1.0/index.ts";
import { redirectionRoutes } from "./redirection-v1/redirection.ts";
import { formsPluginRoutes } from "./forms-submissions/index.ts";
import { siteHealthRoutes } from "./site-health-v1/index.ts";
import { blockEditorRoutes } from "./block-editor-v1/index.ts";
import { seoRoutes } from "./seo-v1/index.ts";

/** The index's namespace order (seed 000 §1.2); a namespace not named here comes after these. */
export const NAMESPACE_ORDER = [
  "forms-admin/v1", "oembed/1.0", "consent/v1", "consent-feedback/v1", "downloads",
  "forms-submissions", "forms-views", "redirection/v1", "seo/v1", "lang/v1", "forms/v2", "core/v2",
  "site-health/v1", "block-editor/v1",
];

const rank = (namespace: string) => {
  const i = NAMESPACE_ORDER.indexOf(namespace);
  return i < 0 ? NAMESPACE_ORDER.length : i;
};

export function siteRoutes(): SiteRoute[] {
  // Each namespace folder exports its routes; add a folder's list here.
  const routes: SiteRoute[] = [...batchRoutes, ...languageNamespaceRoutes, ...coreRoutes, ...oembedRoutes, ...redirectionRoutes, ...formsPluginRoutes, ...siteHealthRoutes, ...blockEditorRoutes, ...seoRoutes];
  const namespaces = () => [...new Set(routes.map((r) => r.namespace).filter(Boolean))].sort((a, b) => rank(a) - rank(b));
  return [...discoveryRoutes(namespaces), ...routes];
}
