// Rows nearly every request reads and almost nothing writes (site options, languages and their
// settings, a user's credentials), kept across requests while this process has written none of the
// tables they come from: WordPress keeps its autoloaded options in a persistent object cache the
// same way. Exact only where this process is the database's one writer, which Database.writeMark
// says (PGlite: a data directory belongs to one process); on PostgreSQL every call reads.
import type { Database, TableName } from "./db.ts";

const kept = new WeakMap<Database, Map<string, { mark: string; value: Promise<unknown> }>>();

export interface KeptOptions<T> {
  /** Whether to keep this answer (e.g. not a miss, so unknown keys cannot fill memory). */
  keep?: (value: T) => boolean;
}

/**
 * `read()`'s answer, frozen (every request shares it), read again once this process may have
 * written any of `tables`.
 */
export async function keptUntilWrite<T>(db: Database, key: string, tables: readonly TableName[], read: () => Promise<T>, options: KeptOptions<T> = {}): Promise<T> {
  const mark = await db.writeMark(tables);
  if (mark === undefined) return read();
  let byKey = kept.get(db);
  if (!byKey) kept.set(db, (byKey = new Map()));
  const hit = byKey.get(key);
  if (hit?.mark === mark) return hit.value as Promise<T>;
  const value = read().then(deepFreeze);
  const entry = { mark, value };
  byKey.set(key, entry);
  const forget = () => { if (byKey.get(key) === entry) byKey.delete(key); };
  value.then((v) => { if (options.keep && !options.keep(v)) forget(); }, forget);
  return value;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
