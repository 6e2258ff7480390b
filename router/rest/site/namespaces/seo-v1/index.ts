// seo/v1: Yoast SEO-compatible routes (seed 000 §4.8).
export { seoRoutes } from "./seo.ts";
