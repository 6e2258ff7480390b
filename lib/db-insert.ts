// A multi-row INSERT sent as SQL, for the bulk paths that write many rows at once (new posts and
// their terms). Prisma's createMany / createManyAndReturn put every row and column through its
// query compiler: 25 posts cost ~11 ms of CPU that way against ~3 ms as one statement written here
// (bench/README.md). PostgreSQL and PGlite alike.
import { Prisma } from "../generated/prisma/client.ts";

/**
 * `INSERT INTO "table" (columns…) VALUES (…), (…)` for rows of our own typed objects, every row
 * with the same keys (the columns; a column left out, or undefined, takes the database's default). Values are
 * parameters; `casts` names the columns whose parameter needs one (a JSON column: "jsonb"). Add
 * `RETURNING *` with Prisma.sql to read the rows back.
 */
export function insertRows<Row extends object>(table: string, rows: readonly Row[], casts: Partial<Record<keyof Row & string, string>> = {}): Prisma.Sql {
  if (!rows.length) throw new Error(`insertRows: no rows for ${table}`);
  const columns = Object.keys(rows[0]) as (keyof Row & string)[];
  const values = rows.map((row) => {
    if (Object.keys(row).length !== columns.length) throw new Error(`insertRows: every row of ${table} needs the same columns`);
    return Prisma.sql`(${Prisma.join(columns.map((column) => {
      const value = row[column];
      const cast = casts[column];
      // As Prisma reads an undefined field: not set, so the column's default.
      if (value === undefined) return Prisma.raw("DEFAULT");
      return cast ? Prisma.sql`${cast === "jsonb" ? JSON.stringify(value) : value}::${Prisma.raw(cast)}` : value;
    }))})`;
  });
  const names = columns.map((column) => `"${column.replaceAll('"', '""')}"`).join(", ");
  return Prisma.sql`INSERT INTO ${Prisma.raw(`"${table.replaceAll('"', '""')}"`)} (${Prisma.raw(names)}) VALUES ${Prisma.join(values)}`;
}
