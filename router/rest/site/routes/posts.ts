// core/v2/posts: the post type's routes (seed 000 §4.2, query set L-post).
import { POSTS, postTypeRoutes } from "./post-type-routes.ts";

export { contextArg, pageLinks } from "./post-type-routes.ts";
export const postRoutes = postTypeRoutes(POSTS);
