// core/v2/pages: the page type's routes (seed 000 §4.2, query set L-page).
import { PAGES, postTypeRoutes } from "./post-type-routes.ts";

export const pageRoutes = postTypeRoutes(PAGES);
