-- Indexes Prisma cannot declare, kept out of the init migration (which `npm run db:init-migration`
-- regenerates from prisma/schema); lib/migrate.ts applies every folder in order.

-- The subject prefix filter (GET /api/v2/messages?subject[start]=…, messages(filter: {subject: …}))
-- sends `subject ILIKE 'prefix%'` together with
--   LOWER("subject") >= LOWER($1) AND LOWER("subject") < LOWER($2)
-- (subgraphs/gateway/mail/messages.ts, subjectPrefixRange): this index answers the range, the
-- ILIKE then checks the few rows it yields.
CREATE INDEX "GatewayMessage_subject_lower_idx" ON "GatewayMessage" (lower("subject"));

-- The range holds every prefix match only when text sorts by code point, as the C, POSIX and
-- C.UTF-8 collations (PGlite's, and a database created with them) do. Under a linguistic default
-- collation (en_US.UTF-8, ICU) "inv-x" sorts after "invw" and would be lost, so there the column
-- gets a code point collation, keeping Unicode case folding (for ILIKE and lower()) where one exists.
DO $$
BEGIN
  IF NOT ('a-c' < 'ab' AND 'B' < 'a' AND 'Z' < 'a' AND 'z' < 'é') THEN
    IF EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'pg_c_utf8') THEN
      ALTER TABLE "GatewayMessage" ALTER COLUMN "subject" SET DATA TYPE TEXT COLLATE "pg_c_utf8";
    ELSIF EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'C.utf8' AND collencoding IN (-1, pg_char_to_encoding('UTF8'))) THEN
      ALTER TABLE "GatewayMessage" ALTER COLUMN "subject" SET DATA TYPE TEXT COLLATE "C.utf8";
    ELSE
      ALTER TABLE "GatewayMessage" ALTER COLUMN "subject" SET DATA TYPE TEXT COLLATE "C";
    END IF;
  END IF;
END
$$;
