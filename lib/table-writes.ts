// Which tables this process may have written, counted per table from the SQL it sends, so a
// process-wide cache of rarely written rows (site options, languages, credentials) is dropped only
// by writes that can change them, not by every post created. A write reaches other tables through
// the schema too: a foreign key's ON DELETE / ON UPDATE action (deleting a user deletes its
// application passwords) and a trigger (a post insert updates the post counts). Both are read from
// the database's catalog, so a new cascade or trigger is seen without anyone listing it here.

/** A statement's SQL text, as Prisma reports it; or a trigger function's body. */
type Sql = string;

const NAME = String.raw`(?:"(?:[^"]|"")+"|[A-Za-z_][\w$]*)`;
/** INSERT INTO t, UPDATE [ONLY] t, DELETE FROM [ONLY] t, MERGE INTO t: the written table, schema-qualified or not. */
const DML = new RegExp(String.raw`\b(?:INSERT\s+INTO|UPDATE(?:\s+ONLY)?|DELETE\s+FROM(?:\s+ONLY)?|MERGE\s+INTO)\s+(${NAME}(?:\s*\.\s*${NAME})?)`, "gi");
/** Statements that write no table: a plain read, and transaction control. */
const WRITES_NOTHING = /^\s*(?:SELECT\b(?![\s\S]*\b(?:INSERT|(?<!\bFOR\s+(?:NO\s+KEY\s+)?)UPDATE|DELETE|MERGE)\b)|BEGIN\b|START\s+TRANSACTION\b|COMMIT\b|END\b|ROLLBACK\b|SAVEPOINT\b|RELEASE\b|SET\b|SHOW\b|--\s*Implicit\s+"(?:BEGIN|COMMIT|ROLLBACK)")/i;
/** Statements whose written tables the text cannot show (DDL, TRUNCATE of a list, a procedure…) are written by anything but these. */
const PARSEABLE = /^\s*(?:WITH\b|INSERT\b|UPDATE\b|DELETE\b|MERGE\b|SELECT\b)/i;

/** Unquoted names fold to lower case, as Postgres folds them; the schema is dropped. */
function tableName(qualified: string): string {
  const last = qualified.match(new RegExp(`${NAME}$`))![0];
  return last.startsWith('"') ? last.slice(1, -1).replaceAll('""', '"') : last.toLowerCase();
}

/**
 * The tables a statement writes directly: [] when it writes none, null when its text cannot tell
 * (anything but the DML and transaction control Prisma and our raw SQL send). A name the pattern
 * picks up by mistake (`FOR UPDATE SKIP LOCKED`, `DO UPDATE SET`) only names a table that is not
 * there, which is harmless: the table written is named too.
 */
export function writtenTables(sql: Sql): string[] | null {
  if (WRITES_NOTHING.test(sql)) return [];
  if (!PARSEABLE.test(sql)) return null;
  const tables = [...sql.matchAll(DML)].map((m) => tableName(m[1]));
  return tables.length ? tables : null;
}

/** From the catalog: tables changed by writes to other tables (foreign key actions, triggers). */
export interface SchemaEffects {
  /** A row per foreign key with an action: writing `writer` may change `affected`. */
  cascades: { affected: string; writer: string }[];
  /** A row per trigger: its table and its function's body. */
  triggers: { writer: string; body: string }[];
  /** The functions defined in the schema (a trigger that calls one may write through it). */
  functions: { name: string }[];
}

/** What a trigger body writes; dynamic SQL (EXECUTE) or a call to one of the schema's functions may write anything. */
function triggerWrites(body: string, functions: readonly string[]): string[] | null {
  if (/\bEXECUTE\b/i.test(body) || functions.some((name) => new RegExp(`\\b${name}"?\\s*\\(`, "i").test(body))) return null;
  return [...body.matchAll(DML)].map((m) => tableName(m[1]));
}

/**
 * Per-table write counts. `note` takes every statement sent (after it ran); `mark(tables)` is a
 * value that changes whenever any of `tables` may have been written since, directly or through
 * the schema. The schema's effects are read again after a statement this cannot read (DDL, a
 * migration), which may have changed them.
 */
export class TableWrites {
  private readonly counts = new Map<string, number>();
  /** Statements whose written tables are unknown: they count as writes to every table. */
  private unknown = 0;
  private effects?: { unknown: number; affectedBy: Promise<(table: string) => string[]> };

  constructor(private readonly readSchema: () => Promise<SchemaEffects>) {}

  note(sql: Sql): void {
    const tables = writtenTables(sql);
    if (tables === null) this.unknown++;
    else for (const table of tables) this.counts.set(table, (this.counts.get(table) ?? 0) + 1);
  }

  /** A write no SQL text shows (a raw SQL transaction's statement): it may have written anything. */
  noteUnknown(): void {
    this.unknown++;
  }

  async mark(tables: readonly string[]): Promise<string> {
    const unknown = this.unknown;
    if (this.effects?.unknown !== unknown) {
      const effects = { unknown, affectedBy: this.readEffects() };
      this.effects = effects;
      effects.affectedBy.catch(() => { if (this.effects === effects) this.effects = undefined; });
    }
    const affectedBy = await this.effects.affectedBy;
    let written = 0;
    for (const table of new Set(tables.flatMap(affectedBy))) written += this.counts.get(table) ?? 0;
    // Both parts: a new schema may have fewer cascades, and the sum alone could then repeat.
    return `${unknown}:${written}`;
  }

  /** For each table, every table whose writes may change it (itself included), transitively. */
  private async readEffects(): Promise<(table: string) => string[]> {
    const { cascades, triggers, functions } = await this.readSchema();
    const names = functions.map((f) => f.name.replace(/[^\w$]/g, ""));
    const writers = new Map<string, Set<string>>();
    const edge = (affected: string, writer: string) => writers.set(affected, (writers.get(affected) ?? new Set()).add(writer));
    const everywhere = new Set<string>();
    for (const { affected, writer } of cascades) edge(affected, writer);
    for (const { writer, body } of triggers) {
      const written = triggerWrites(body, names);
      if (written === null) everywhere.add(writer);
      else for (const affected of written) edge(affected, writer);
    }
    const closures = new Map<string, string[]>();
    return (table) => {
      let closure = closures.get(table);
      if (!closure) {
        const found = new Set([table, ...everywhere]);
        for (const t of found) for (const w of writers.get(t) ?? []) found.add(w);
        closures.set(table, (closure = [...found]));
      }
      return closure;
    };
  }
}

/** The catalog query SchemaEffects comes from: foreign keys with an action, and triggers, in the current schema. */
export const SCHEMA_EFFECTS_SQL = {
  cascades: `SELECT r.relname AS affected, w.relname AS writer FROM pg_constraint c
    JOIN pg_class r ON r.oid = c.conrelid JOIN pg_class w ON w.oid = c.confrelid
    WHERE c.contype = 'f' AND (c.confdeltype IN ('c', 'n', 'd') OR c.confupdtype IN ('c', 'n', 'd'))
      AND r.relnamespace = current_schema()::regnamespace`,
  triggers: `SELECT t.relname AS writer, p.prosrc AS body FROM pg_trigger g
    JOIN pg_class t ON t.oid = g.tgrelid JOIN pg_proc p ON p.oid = g.tgfoid
    WHERE NOT g.tgisinternal AND t.relnamespace = current_schema()::regnamespace`,
  functions: `SELECT proname AS name FROM pg_proc WHERE pronamespace = current_schema()::regnamespace`,
};
