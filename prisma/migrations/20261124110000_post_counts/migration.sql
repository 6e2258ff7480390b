-- How many posts each type has in each status, kept by the database itself: a list's total
-- (X-WP-Total) without filters is read here instead of counted over every post, so page 1 and deep
-- pages of a large site cost what they cost on a small one (bench/growth.ts). Inserts and deletes
-- count per statement (a multi-row insert, batch/v1's creates, updates each counter once);
-- updates per row, only when the type or status changes. Counters are touched in (type, status)
-- order, so two writers never wait on each other in a cycle.
CREATE TABLE "PostCount" (
  "type" TEXT NOT NULL,
  "status" TEXT NOT NULL,
  "count" INTEGER NOT NULL DEFAULT 0,
  CONSTRAINT "PostCount_pkey" PRIMARY KEY ("type", "status")
);

INSERT INTO "PostCount" ("type", "status", "count") SELECT "type", "status", count(*) FROM "Post" GROUP BY "type", "status";

CREATE FUNCTION post_count_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "PostCount" AS c ("type", "status", "count")
  SELECT "type", "status", count(*) FROM new_rows GROUP BY "type", "status" ORDER BY "type", "status"
  ON CONFLICT ("type", "status") DO UPDATE SET "count" = c."count" + EXCLUDED."count";
  RETURN NULL;
END
$$;

CREATE FUNCTION post_count_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "PostCount" AS c SET "count" = c."count" - o.n
  FROM (SELECT "type", "status", count(*) AS n FROM old_rows GROUP BY "type", "status" ORDER BY "type", "status") AS o
  WHERE c."type" = o."type" AND c."status" = o."status";
  RETURN NULL;
END
$$;

CREATE TRIGGER "Post_count_insert" AFTER INSERT ON "Post" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION post_count_add();
CREATE TRIGGER "Post_count_delete" AFTER DELETE ON "Post" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION post_count_remove();
CREATE FUNCTION post_count_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "PostCount" AS c ("type", "status", "count")
  SELECT * FROM (VALUES (OLD."type", OLD."status", -1), (NEW."type", NEW."status", 1)) AS m ORDER BY 1, 2
  ON CONFLICT ("type", "status") DO UPDATE SET "count" = c."count" + EXCLUDED."count";
  RETURN NULL;
END
$$;

CREATE TRIGGER "Post_count_update" AFTER UPDATE OF "type", "status" ON "Post"
  FOR EACH ROW WHEN (OLD."type" IS DISTINCT FROM NEW."type" OR OLD."status" IS DISTINCT FROM NEW."status")
  EXECUTE FUNCTION post_count_move();
