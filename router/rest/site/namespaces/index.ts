// The site route table: one folder per namespace, listed in the index's namespace order
// (seed 000 §1.2). The index, namespace roots, validation, batch and OpenAPI all derive from it.
import { discoveryRoutes } from "../discovery.ts";
import type { SiteRoute } from "../route.ts";
import { batchRoutes } from "./batch-v1/batch.ts";
import { coreRoutes } from "./core-v2/index.ts";
import { languageNamespaceRoutes } from "./lang-v1/index.ts";

export function siteRoutes(): SiteRoute[] {
  const routes: SiteRoute[] = [...batchRoutes, ...languageNamespaceRoutes, ...coreRoutes];
  const namespaces = () => [...new Set(routes.map((r) => r.namespace).filter(Boolean))];
  return [...discoveryRoutes(namespaces), ...routes];
}
