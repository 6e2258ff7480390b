import type { PGlite } from "@electric-sql/pglite";

/** lib/pglite-autoanalyze.js: autovacuum's analyze, for PGlite. */
export function autoAnalyze(db: Pick<PGlite, "query" | "exec">, everyMs?: number): { ran(): void; stop(): void };
