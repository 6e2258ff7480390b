// PGlite runs Postgres in single-user mode: there is no autovacuum daemon, so nothing ANALYZEs a
// table as it grows, and the planner keeps planning from what it knew of the table when it was
// small. On the bench site grown from 500 to 10,000 posts through the API, a batch's slug check
// filtered every post instead of reading 25 ranges of the (type, slug) index: 18 ms instead of 1.3.
// This does autovacuum's analyze for PGlite: a while after the start and after statements, each table
// changed by more than 50 rows + 10 % of its rows since its last ANALYZE (autovacuum's default
// thresholds), or never analyzed, is analyzed.
// Its statements go to PGlite directly, not through Prisma, so they never count as a request's.
// Plain JavaScript: the database thread (lib/pglite-thread-worker.js) runs it as it is.

/**
 * Tables past autovacuum's analyze threshold, and tables with rows that were never analyzed: PGlite
 * keeps no statistics file, so the change counters start at zero at every start (a site seeded and
 * restarted has counted nothing). The counters are flushed first (single-user mode flushes lazily).
 */
const DUE_SQL = `
  SELECT format('%I.%I', s.schemaname, s.relname) AS name
  FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
  WHERE s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
     OR (c.reltuples < 0 AND pg_relation_size(c.oid) > 0)`;

/**
 * Checks `everyMs` after the database opens, then `everyMs` after each `ran()` (one check at a
 * time, however many statements meanwhile). `stop()` cancels a pending check, and any after it.
 */
export function autoAnalyze(db, everyMs = 10_000) {
  let timer;
  let stopped = false;
  const check = async () => {
    await db.query("SELECT pg_stat_force_next_flush()");
    const { rows } = await db.query(DUE_SQL);
    for (const { name } of rows) await db.exec(`ANALYZE ${name}`);
  };
  const soon = () => {
    if (stopped) return;
    timer ??= setTimeout(() => {
      // A closed database or a failed ANALYZE leaves the statistics as they were, which is all this can do.
      check().catch(() => {}).finally(() => { timer = undefined; });
    }, everyMs);
    timer.unref?.();
  };
  soon();
  return {
    /**
     * After each statement. Reads count too: telling them from writes would be a second SQL parser
     * (lib/table-writes.ts has the first), and a check after reads only costs two small statements.
     */
    ran: soon,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
