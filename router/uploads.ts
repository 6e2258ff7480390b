// Uploaded files, served read-only at their public address (`/wp-content/uploads/<key>`), as the
// web server in front of WordPress does. The bytes come from the same media storage the content
// subgraph writes (configured from the same DATA_DIR), so when the subgraph runs in another
// process both must see the same storage: one disk or shared volume, or later an object store.
import type { FastifyInstance } from "fastify";
import type { Config } from "../lib/config.ts";
import { mimeTypeOf } from "../lib/media/file-types.ts";
import { isValidKey, mediaStorage, UPLOADS_PATH } from "../lib/media/storage.ts";

export function registerUploads(app: FastifyInstance, config: Config): void {
  const storage = mediaStorage(config);
  app.get(`${UPLOADS_PATH}/*`, async (request, reply) => {
    let key: string;
    try {
      key = decodeURIComponent(request.url.split("?")[0].slice(UPLOADS_PATH.length + 1));
    } catch {
      return reply.status(404).send({ code: "not_found", message: "Not found." });
    }
    const bytes = isValidKey(key) ? await storage.get(key) : null;
    if (!bytes) return reply.status(404).send({ code: "not_found", message: "Not found." });
    return reply
      .headers({
        "Content-Type": mimeTypeOf(key) ?? "application/octet-stream",
        // Never let a browser guess another type for a file someone uploaded.
        "X-Content-Type-Options": "nosniff",
      })
      .send(bytes);
  });
}
