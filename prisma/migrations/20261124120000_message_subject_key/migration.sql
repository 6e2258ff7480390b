-- The case-insensitive subject prefix filter (subject[start]=…) at appliance scale, and subjects
-- of any length. The lower("subject") index of 20261124000000_message_expression_indexes had two
-- faults: a 998-character subject in a multi-byte script makes an index row over btree's limit
-- (about 2.7 kB), so ingesting it failed; and PostgreSQL answers from an expression index only by
-- visiting the table (an index-only scan needs the column itself in the index), so an exact count
-- of a common prefix read every matching row. Instead, each message keeps its key,
-- lower(left(subject, 200)) (at most 800 bytes), in a column of its own, and one index on
-- (key, receivedOn, id) answers both the count and the page's ids without the table
-- (subgraphs/gateway/mail/messages.ts: subjectPrefixRange, listMessages).

-- IF NOT EXISTS: an init migration regenerated from prisma/schema already has the column.
ALTER TABLE "GatewayMessage" ADD COLUMN IF NOT EXISTS "subjectKey" TEXT;
-- Code point order, whatever the database's default collation: every key starting with an ASCII
-- prefix then lies in [prefix, prefix with its last character incremented).
ALTER TABLE "GatewayMessage" ALTER COLUMN "subjectKey" SET DATA TYPE TEXT COLLATE "C";

-- Computed by the database, with the lower() that ILIKE on "subject" uses (the column's
-- collation), so the key range and the ILIKE agree on every subject.
CREATE FUNCTION "gateway_message_subject_key"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."subjectKey" := lower(left(NEW."subject", 200));
  RETURN NEW;
END
$$;
CREATE TRIGGER "GatewayMessage_subject_key" BEFORE INSERT OR UPDATE OF "subject" ON "GatewayMessage"
  FOR EACH ROW EXECUTE FUNCTION "gateway_message_subject_key"();
UPDATE "GatewayMessage" SET "subjectKey" = lower(left("subject", 200));

DROP INDEX IF EXISTS "GatewayMessage_subject_lower_idx";
CREATE INDEX "GatewayMessage_subjectKey_receivedOn_id_idx" ON "GatewayMessage" ("subjectKey", "receivedOn", "id");
