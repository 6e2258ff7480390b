// The embedded database's own thread (issue 12): PGlite and its Prisma driver adapter run here, so
// Postgres's work (parsing, planning, executing in wasm, encoding and decoding rows) uses the second
// core while the main thread serves requests. lib/pglite-thread.ts is the other end. Plain
// JavaScript because a worker thread is started from a file Node runs as it is (no tsx in it).
//
// Messages in: { id, op, session?, payload }. Answers: { id, value } or { id, error }.
// A session is one open transaction; PGlite runs one at a time and queues everything else behind
// it (its own locks), exactly as when it ran on the main thread. A session's statements may arrive
// before PGlite has opened it: they wait for it, in order.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { autoAnalyze } from "./pglite-autoanalyze.js";

// workerData: { dataDir (absent: in memory), options (PGlite options that are data; extensions are
// added here), analyzeEveryMs (lib/pglite-autoanalyze.js) }.
const db = new PGlite({ ...workerData.options, dataDir: workerData.dataDir, extensions: { pg_trgm } });
const analyzer = autoAnalyze(db, workerData.analyzeEveryMs);
const adapterOf = async (client) => new PrismaPGlite(client).connect();
const root = adapterOf(db);
/**
 * Open transactions by session id (chosen by the other end, which sends a session's statements
 * without waiting for its begin): each a promise of the transaction, its adapter and raw client
 * and how to end it, settled once PGlite has opened it.
 */
const sessions = new Map();

/** Opens transaction `id`; answers once it is open. It ends when "commit" or "rollback" resolves `end`. */
function begin(id, isolationLevel) {
  let end;
  const ended = new Promise((resolve) => { end = resolve; });
  const opened = new Promise((resolve, reject) => {
    const done = db.transaction(async (tx) => {
      if (isolationLevel) await tx.exec(`SET TRANSACTION ISOLATION LEVEL ${isolationLevel}`);
      resolve({ tx, adapter: await adapterOf(tx), end, done });
      if ((await ended) === "rollback") await tx.rollback();
    });
    done.catch(reject).finally(() => sessions.delete(id));
  });
  sessions.set(id, opened);
  return opened.then(() => id);
}

/** The open transaction `id`, waiting for its begin; a begin that failed fails this with its error. */
async function opened(id) {
  const session = sessions.get(id);
  if (!session) throw new Error(`No open database transaction ${id}`);
  return session;
}

async function finish(id, how) {
  // Rolling back a transaction whose begin failed has nothing left to undo.
  const session = how === "rollback" ? await opened(id).catch(() => null) : await opened(id);
  if (!session) return;
  session.end(how);
  await session.done;
}

const ops = {
  query: async (payload, session) => (session ? session.adapter : await root).queryRaw(payload),
  execute: async (payload, session) => (session ? session.adapter : await root).executeRaw(payload),
  /** SQL text with several statements; the last one's rows. */
  exec: async (sql, session) => ((await (session ? session.tx : db).exec(sql)).at(-1)?.rows ?? []),
  begin: (isolationLevel, _, id) => begin(id, isolationLevel),
  commit: (_, __, id) => finish(id, "commit"),
  rollback: (_, __, id) => finish(id, "rollback"),
  ready: () => db.waitReady.then(() => true),
  close: () => { analyzer.stop(); return db.close().then(() => true); },
};

/** Errors cross the thread as plain data: their name, message, stack and own fields (a Postgres code, a Prisma adapter cause). */
function plain(error) {
  if (!(error instanceof Error)) return { name: "Error", message: String(error) };
  const fields = {};
  for (const [key, value] of Object.entries(error)) {
    try { fields[key] = structuredClone(value); } catch { /* not data */ }
  }
  return { ...fields, name: error.name, message: error.message, stack: error.stack, ...(error.cause !== undefined ? { cause: structuredClone(error.cause) } : {}) };
}

parentPort.on("message", async ({ id, op, session, payload }) => {
  try {
    const inSession = session !== undefined && !["begin", "commit", "rollback"].includes(op);
    parentPort.postMessage({ id, value: await ops[op](payload, inSession ? await opened(session) : undefined, session) });
    analyzer.ran();
  } catch (error) {
    parentPort.postMessage({ id, error: plain(error) });
  }
});
