// Where uploaded files live, behind a small key/value interface so an object store can replace
// the local disk later. Keys are WordPress's upload paths ("2024/05/photo.jpg"), and every key
// is served by the router at `${siteUrl}/wp-content/uploads/<key>` (router/uploads.ts).
//
// The content subgraph writes files and the router reads them, possibly in different processes:
// both build their storage with `mediaStorage(config)`, so they must share DATA_DIR (one disk,
// or a shared volume) — or, once it exists, the same object-store configuration.
import fs from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config.ts";

export interface MediaStorage {
  /** Stores bytes under a key. With `exclusive`, a taken key is left alone and `false` returned. */
  put(key: string, bytes: Buffer, options?: { exclusive?: boolean }): Promise<boolean>;
  /** The bytes under a key, or null when there are none. */
  get(key: string): Promise<Buffer | null>;
  /** Removes a key; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** The public address of a key. */
  url(key: string): string;
}

/** A key is a relative path of plain segments: no "..", no leading slash, no backslashes or NUL. */
export function isValidKey(key: string): boolean {
  if (key === "" || key.startsWith("/") || /[\\\0]/.test(key)) return false;
  return key.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..");
}

/** Files under one directory on the local disk (`${DATA_DIR}/uploads`). */
export class LocalDiskStorage implements MediaStorage {
  constructor(private readonly root: string, private readonly baseUrl: string) {}

  private file(key: string): string {
    if (!isValidKey(key)) throw new Error(`Invalid media key "${key}"`);
    return path.join(this.root, ...key.split("/"));
  }

  async put(key: string, bytes: Buffer, options: { exclusive?: boolean } = {}): Promise<boolean> {
    const file = this.file(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    try {
      // "wx" makes claiming a free name atomic, so two uploads never get the same file.
      await fs.writeFile(file, bytes, { flag: options.exclusive ? "wx" : "w" });
      return true;
    } catch (error) {
      if (options.exclusive && (error as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    if (!isValidKey(key)) return null;
    try {
      return await fs.readFile(this.file(key));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "EISDIR" || code === "ENOTDIR") return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.file(key), { force: true });
  }

  url(key: string): string {
    return `${this.baseUrl}/${key.split("/").map(encodeURIComponent).join("/")}`;
  }
}

/** Public path prefix of uploaded files, as in WordPress. */
export const UPLOADS_PATH = "/wp-content/uploads";

const storages = new Map<string, MediaStorage>();

/** The storage configured for this process (one per data directory and site address). */
export function mediaStorage(config: Pick<Config, "dataDir" | "siteUrl">): MediaStorage {
  const root = path.join(config.dataDir, "uploads");
  const id = `${root}\n${config.siteUrl}`;
  let storage = storages.get(id);
  if (!storage) storages.set(id, storage = new LocalDiskStorage(root, `${config.siteUrl}${UPLOADS_PATH}`));
  return storage;
}
