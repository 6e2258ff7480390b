// What the database says about a write, whichever driver carried it.

/**
 * A unique constraint refused the write (another request took the value between our check and
 * our write): Prisma's P2002, or the raw PostgreSQL unique violation (23505) the PGlite adapter
 * passes through unmapped.
 */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; cause?: { code?: unknown; kind?: unknown } } | null;
  return e?.code === "P2002" || e?.cause?.code === "23505" || e?.cause?.kind === "UniqueConstraintViolation";
}
