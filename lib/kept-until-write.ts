// Rows nearly every request reads and almost nothing writes (site options, languages and their
// settings), kept across requests while this process has sent no statement that may write since
// reading them: WordPress keeps its autoloaded options in a persistent object cache the same way.
// Exact only where this process is the database's one writer, which Database.writes() says (PGlite:
// a data directory belongs to one process); on PostgreSQL every call reads.
import type { Database } from "./db.ts";

const kept = new WeakMap<Database, Map<string, { writes: number; value: Promise<unknown> }>>();

/** `read()`'s answer, frozen (every request shares it), read again after any write by this process. */
export function keptUntilWrite<T>(db: Database, key: string, read: () => Promise<T>): Promise<T> {
  const writes = db.writes();
  if (writes === undefined) return read();
  let byKey = kept.get(db);
  if (!byKey) kept.set(db, (byKey = new Map()));
  const hit = byKey.get(key);
  if (hit?.writes === writes) return hit.value as Promise<T>;
  const value = read().then(deepFreeze);
  const entry = { writes, value };
  byKey.set(key, entry);
  value.catch(() => { if (byKey.get(key) === entry) byKey.delete(key); });
  return value;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
