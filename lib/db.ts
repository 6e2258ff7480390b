// One database handle per process: Prisma Client on a driver adapter, PGlite (embedded, the
// default, on its own thread unless asked otherwise) or PostgreSQL, chosen by the URL. Also exposes
// a raw SQL runner for migrations and a statement counter (tests and benchmarks use it to prove
// batching).
import fs from "node:fs";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { pgliteAdapter } from "./pglite-adapter.ts";
import { autoAnalyze } from "./pglite-autoanalyze.js";
import { PGliteThread, pgliteThreadAdapter } from "./pglite-thread.ts";
import type { SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { SCHEMA_EFFECTS_SQL, TableWrites, type SchemaEffects } from "./table-writes.ts";
import { PrismaClient, type Prisma } from "../generated/prisma/client.ts";

export type { PrismaClient };
/** A table, by its model's name in the Prisma schema (no model maps to another table name). */
export type TableName = Prisma.ModelName;

/** Runs SQL text (several statements allowed) inside one transaction. */
export type SqlTransaction = <T>(work: (run: (sql: string) => Promise<Record<string, unknown>[]>) => Promise<T>) => Promise<T>;

export interface Database {
  prisma: PrismaClient;
  transaction: SqlTransaction;
  /** Number of SQL statements Prisma has sent since the database was opened. */
  statements(): number;
  /**
   * A mark that changes whenever this process may have written any of `tables` (directly, or
   * through a foreign key's action or a trigger: lib/table-writes.ts), when it is the database's
   * only writer (PGlite: a data directory belongs to one process); undefined on PostgreSQL, where
   * other processes write too. What was read while the mark stayed the same is still current, so a
   * process-wide cache of rarely written rows (site options) is exact.
   */
  writeMark(tables: readonly TableName[]): Promise<string | undefined>;
  /**
   * Whether transactions run one at a time (PGlite: every other statement waits for the open
   * transaction to end), so a lock that only orders simultaneous transactions is not needed.
   */
  serialTransactions: boolean;
  close(): Promise<void>;
}

/**
 * Extensions the migrations create (pg_trgm: trigram indexes for post search; PostgreSQL ships
 * them as contrib). postgresqlconf replaces the data directory's postgresql.conf at every start:
 * Postgres's default shared_buffers (128 MB, zeroed at start, so resident for the process's life)
 * was most of the process's memory, while the OS page cache holds the data files anyway; 32 MB
 * serves requests as fast (issue 12). template1 is the database PGlite created before 0.4 (which
 * defaults to "postgres"): existing data directories keep their data.
 */
const PGLITE_OPTIONS = {
  database: "template1",
  postgresqlconf: "shared_buffers = 32MB\n",
} satisfies PGliteOptions;

export interface DatabaseOptions {
  /**
   * PGlite only: run it on its own thread (lib/pglite-thread.ts; DATABASE_THREAD, on by default) so
   * Postgres's work uses another core, or in this thread (one core for everything, as before).
   */
  thread?: boolean;
  /** PGlite only: how long after the start and after a statement its tables' statistics are checked (lib/pglite-autoanalyze.js; 10 s). */
  analyzeEveryMs?: number;
}

export async function openDatabase(url: string, { thread = true, analyzeEveryMs }: DatabaseOptions = {}): Promise<Database> {
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) return openPostgres(url);
  let dataDir: string | undefined;
  if (url.startsWith("file:")) {
    dataDir = url.slice("file:".length);
    fs.mkdirSync(dataDir, { recursive: true });
  } else if (url !== "memory:") {
    throw new Error(`DATABASE_URL must be memory:, file:<dir> or postgres://…, got "${url}"`);
  }
  return thread ? openPgliteThread(dataDir, analyzeEveryMs) : openPglite(new PGlite({ ...PGLITE_OPTIONS, dataDir, extensions: { pg_trgm } }), analyzeEveryMs);
}

/**
 * Prisma gives an interactive transaction 2 s to get a connection and 5 s to finish by default; a
 * burst of writes serialised on one lock (20 publishes of one title) can wait longer on a busy
 * machine, and a writer that waits is better than a 500.
 */
const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 30_000 };

/**
 * Prisma Client on a driver adapter, with the Database's counters: every statement, and (on
 * `embedded` PGlite, where this process is the only writer) the tables each one wrote, as it
 * completes. Inside a transaction that is before its commit, which is safe on PGlite, where
 * transactions run one at a time and every other statement waits for the open one to end.
 * `counted` makes each statement of a raw SQL transaction (migrations) a write to every table.
 */
function clientOn(adapter: SqlDriverAdapterFactory, embedded: boolean) {
  const prisma = new PrismaClient({ adapter, log: [{ emit: "event", level: "query" }], transactionOptions: TRANSACTION_OPTIONS });
  let statements = 0;
  // Only the database's one writer keeps marks (Database.writeMark): elsewhere nothing is tracked.
  const writes = embedded ? new TableWrites(async () => {
    const [cascades, triggers, functions] = await Promise.all([
      prisma.$queryRawUnsafe<SchemaEffects["cascades"]>(SCHEMA_EFFECTS_SQL.cascades),
      prisma.$queryRawUnsafe<SchemaEffects["triggers"]>(SCHEMA_EFFECTS_SQL.triggers),
      prisma.$queryRawUnsafe<SchemaEffects["functions"]>(SCHEMA_EFFECTS_SQL.functions),
    ]);
    return { cascades, triggers, functions };
  }) : undefined;
  prisma.$on("query" as never, (event: { query: string }) => {
    statements++;
    writes?.note(event.query);
  });
  return {
    prisma,
    serialTransactions: embedded,
    statements: () => statements,
    writeMark: async (tables: readonly TableName[]) => writes?.mark(tables),
    counted: (transaction: SqlTransaction): SqlTransaction => (work) => transaction((run) => work((sql) => { writes?.noteUnknown(); return run(sql); })),
  };
}

async function openPglite(db: PGlite, analyzeEveryMs?: number): Promise<Database> {
  const { counted, ...client } = clientOn(pgliteAdapter(db), true);
  const analyzer = autoAnalyze(db, analyzeEveryMs);
  client.prisma.$on("query" as never, () => analyzer.ran());
  return {
    ...client,
    transaction: counted((work) => db.transaction(async (tx) => work(async (sql) => {
      analyzer.ran();
      const results = await tx.exec(sql);
      return (results.at(-1)?.rows ?? []) as Record<string, unknown>[];
    }))),
    close: async () => { analyzer.stop(); await client.prisma.$disconnect(); await db.close(); },
  };
}

async function openPgliteThread(dataDir: string | undefined, analyzeEveryMs?: number): Promise<Database> {
  const thread = new PGliteThread(dataDir, PGLITE_OPTIONS, analyzeEveryMs);
  try {
    await thread.call("ready");
  } catch (error) {
    await thread.close();
    throw error;
  }
  const { counted, ...client } = clientOn(pgliteThreadAdapter(thread), true);
  return {
    ...client,
    transaction: counted((work) => thread.transaction(work)),
    close: async () => { await client.prisma.$disconnect(); await thread.close(); },
  };
}

/** postgres://…?schema=name puts every table in that schema (created if missing); tests use it to isolate runs. */
async function openPostgres(url: string): Promise<Database> {
  // Loaded here: the embedded default never needs them (~40 ms of every start).
  const [{ default: pg }, { PrismaPg }] = await Promise.all([import("pg"), import("@prisma/adapter-pg")]);
  const parsed = new URL(url);
  const schema = parsed.searchParams.get("schema") ?? undefined;
  parsed.searchParams.delete("schema");
  if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Invalid schema name "${schema}"`);
  const connectionString = parsed.toString();
  if (schema) {
    const admin = new pg.Client({ connectionString });
    await admin.connect();
    await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await admin.end();
  }
  const pool = new pg.Pool({ connectionString, max: 10, options: schema ? `-c search_path="${schema}"` : undefined });
  // Other processes write too: no write marks (Database.writeMark).
  const { counted: _counted, ...client } = clientOn(new PrismaPg(pool, { schema }), false);
  return {
    ...client,
    transaction: async (work) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await work(async (sql) => {
          const res = await client.query(sql);
          const last = Array.isArray(res) ? res.at(-1) : res;
          return (last?.rows ?? []) as Record<string, unknown>[];
        });
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: async () => { await client.prisma.$disconnect(); await pool.end().catch(() => {}); },
  };
}
