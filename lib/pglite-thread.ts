// The embedded database on its own thread (issue 12): PGlite and its Prisma driver adapter run in
// lib/pglite-thread-worker.js, and this side is a Prisma driver adapter that forwards each query,
// and each transaction's begin, queries and end, to it. Postgres's own work (a third to a half of a
// request's CPU) then runs on the second core while this thread serves other requests; the
// statements, their order and the transaction rules are PGlite's, unchanged.
import { Worker } from "node:worker_threads";
import type { PGliteOptions } from "@electric-sql/pglite";
import type {
  IsolationLevel, SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory, SqlQuery, SqlResultSet, Transaction,
} from "@prisma/driver-adapter-utils";

type Op = "query" | "execute" | "exec" | "begin" | "commit" | "rollback" | "ready" | "close";

export class PGliteThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private nextSession = 1;
  private failure?: Error;

  /** dataDir absent: in memory. `options` must be data (the worker adds the extensions). */
  constructor(dataDir: string | undefined, options: Omit<PGliteOptions, "extensions" | "dataDir">, analyzeEveryMs?: number) {
    this.worker = new Worker(new URL("./pglite-thread-worker.js", import.meta.url), { workerData: { dataDir, options, analyzeEveryMs } });
    // Requests keep the process alive, not an idle database thread.
    this.worker.unref();
    this.worker.on("message", ({ id, value, error }: { id: number; value?: unknown; error?: Record<string, unknown> }) => {
      const call = this.pending.get(id);
      if (!call) return;
      this.pending.delete(id);
      if (error) call.reject(revive(error));
      else call.resolve(value);
    });
    const fail = (error: Error) => {
      this.failure ??= error;
      for (const call of this.pending.values()) call.reject(error);
      this.pending.clear();
    };
    this.worker.on("error", fail);
    this.worker.on("exit", (code) => fail(new Error(`The database thread stopped (exit code ${code})`)));
  }

  call<T>(op: Op, payload?: unknown, session?: number): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ id, op, session, payload });
    });
  }

  /**
   * Opens a transaction without waiting for it: its statements, sent with the session id it
   * answers, follow the begin to the database thread and run once the transaction is open, in
   * order. One thread crossing fewer per transaction; a begin that fails fails the first of them.
   */
  begin(isolationLevel?: IsolationLevel): number {
    const session = this.nextSession++;
    this.call("begin", isolationLevel, session).catch(() => {});
    return session;
  }

  /** Runs SQL text (several statements allowed) in one transaction, as PGlite's transaction + exec. */
  async transaction<T>(work: (run: (sql: string) => Promise<Record<string, unknown>[]>) => Promise<T>): Promise<T> {
    const session = this.begin();
    let result: T;
    try {
      result = await work((sql) => this.call("exec", sql, session));
    } catch (error) {
      await this.call("rollback", undefined, session).catch(() => {});
      throw error;
    }
    await this.call("commit", undefined, session);
    return result;
  }

  async close(): Promise<void> {
    if (!this.failure) await this.call("close").catch(() => {});
    await this.worker.terminate();
  }
}

/** An error as it was thrown in the worker: same name, message and fields (Prisma maps a DriverAdapterError by its name and cause). */
function revive(plain: Record<string, unknown>): Error {
  const error = new Error(String(plain.message));
  return Object.assign(error, plain);
}

const INFO = { provider: "postgres", adapterName: "pglite-thread" } as const;

/** A Prisma driver adapter whose queries run on the database thread. */
export function pgliteThreadAdapter(thread: PGliteThread): SqlMigrationAwareDriverAdapterFactory {
  const queryable = (session?: number) => ({
    ...INFO,
    queryRaw: (query: SqlQuery) => thread.call<SqlResultSet>("query", query, session),
    executeRaw: (query: SqlQuery) => thread.call<number>("execute", query, session),
  });
  const adapter: SqlDriverAdapter = {
    ...queryable(),
    executeScript: async (script) => { await thread.call("exec", script); },
    startTransaction: async (isolationLevel?: IsolationLevel): Promise<Transaction> => {
      const session = thread.begin(isolationLevel);
      return {
        ...queryable(session),
        // PGlite's transaction() writes BEGIN and COMMIT itself, as the adapter it replaces does.
        options: { usePhantomQuery: true },
        commit: () => thread.call("commit", undefined, session),
        rollback: () => thread.call("rollback", undefined, session),
      };
    },
    getConnectionInfo: () => ({ supportsRelationJoins: true }),
    dispose: async () => {},
  };
  return {
    ...INFO,
    connect: async () => adapter,
    connectToShadowDb: () => Promise.reject(new Error("The embedded database has no shadow database")),
  };
}
