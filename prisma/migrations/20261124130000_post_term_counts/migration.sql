-- How many posts of each type and status each term has, kept by the database itself (WordPress's
-- term_taxonomy.count, split by type and status): a list filtered by one term and nothing else
-- (?categories=3, ?tags=5) reads its total (X-WP-Total) here instead of counting every match
-- (subgraphs/content/posts/posts.ts: countPosts; bench/growth.ts).
--
-- What moves a counter. PostTerm writes and Post updates count per statement (transition tables),
-- so a multi-row write (batch/v1's creates) touches each counter once; Post and Term deletes
-- unlink per deleted row first:
--   * PostTerm insert / delete / update: the rows' terms, at their post's type and status now.
--   * Post update that changes type or status: every term of those posts moves from the old
--     (type, status) to the new one. (A trigger with transition tables cannot name columns, so it
--     runs on every Post update and finds nothing to move when neither changed.)
--   * Post delete: its PostTerm rows go by ON DELETE CASCADE, but by the time the cascade's delete
--     trigger runs the post is already gone, and with it the type and status to decrement. So a
--     BEFORE DELETE row trigger on Post deletes the post's PostTerm rows itself, while the post is
--     still there; the PostTerm delete trigger counts them and the cascade finds nothing left.
--   * Term delete: a BEFORE DELETE row trigger on Term deletes its PostTerm rows (counted down as
--     above, to 0), then drops its counters.
-- Concurrency (PostgreSQL, READ COMMITTED): a PostTerm insert or delete reads its posts' status
-- under FOR SHARE, which waits for a concurrent status change of the same post to commit and then
-- reads the new status; a status change that waits for it instead sees its committed PostTerm
-- rows. Either way the term is counted in the status the post ends with. Counters are touched in
-- (termId, type, status) order and posts locked in id order, so two writers never wait on each
-- other in a cycle.

-- IF NOT EXISTS: an init migration regenerated from prisma/schema already has the table.
CREATE TABLE IF NOT EXISTS "PostTermCount" (
  "termId" INTEGER NOT NULL,
  "type" TEXT NOT NULL,
  "status" TEXT NOT NULL,
  "count" INTEGER NOT NULL DEFAULT 0,
  CONSTRAINT "PostTermCount_pkey" PRIMARY KEY ("termId", "type", "status")
);

INSERT INTO "PostTermCount" ("termId", "type", "status", "count")
SELECT pt."termId", p."type", p."status", count(*)
FROM "PostTerm" pt JOIN "Post" p ON p."id" = pt."postId"
GROUP BY pt."termId", p."type", p."status";

-- Inserts count up, deletes down: both triggers name their rows changed_rows (the insert's new
-- rows, the delete's old ones). Deleted rows whose post is not there (deleted by this transaction)
-- were counted by post_term_count_unlink.
CREATE FUNCTION post_term_count_shift() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  PERFORM FROM "Post" WHERE "id" IN (SELECT "postId" FROM changed_rows) ORDER BY "id" FOR SHARE;
  INSERT INTO "PostTermCount" AS c ("termId", "type", "status", "count")
  SELECT r."termId", p."type", p."status", sign * count(*) FROM changed_rows r JOIN "Post" p ON p."id" = r."postId"
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT ("termId", "type", "status") DO UPDATE SET "count" = c."count" + EXCLUDED."count";
  RETURN NULL;
END
$$;

-- Nothing in the code changes a PostTerm row's post or term, but whatever does stays counted.
CREATE FUNCTION post_term_count_relink() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM FROM "Post" WHERE "id" IN (SELECT "postId" FROM old_rows UNION SELECT "postId" FROM new_rows) ORDER BY "id" FOR SHARE;
  INSERT INTO "PostTermCount" AS c ("termId", "type", "status", "count")
  SELECT m."termId", p."type", p."status", sum(m.n) FROM (
    SELECT "termId", "postId", -1 AS n FROM old_rows
    UNION ALL SELECT "termId", "postId", 1 FROM new_rows
  ) AS m JOIN "Post" p ON p."id" = m."postId"
  GROUP BY 1, 2, 3 HAVING sum(m.n) <> 0 ORDER BY 1, 2, 3
  ON CONFLICT ("termId", "type", "status") DO UPDATE SET "count" = c."count" + EXCLUDED."count";
  RETURN NULL;
END
$$;

CREATE TRIGGER "PostTerm_count_insert" AFTER INSERT ON "PostTerm" REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION post_term_count_shift();
CREATE TRIGGER "PostTerm_count_delete" AFTER DELETE ON "PostTerm" REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION post_term_count_shift();
CREATE TRIGGER "PostTerm_count_update" AFTER UPDATE ON "PostTerm" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION post_term_count_relink();

CREATE FUNCTION post_term_count_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "PostTermCount" AS c ("termId", "type", "status", "count")
  SELECT m."termId", m."type", m."status", sum(m.n) FROM (
    SELECT pt."termId", o."type", o."status", -1 AS n
    FROM old_rows o JOIN new_rows nw ON nw."id" = o."id" JOIN "PostTerm" pt ON pt."postId" = o."id"
    WHERE o."type" IS DISTINCT FROM nw."type" OR o."status" IS DISTINCT FROM nw."status"
    UNION ALL
    SELECT pt."termId", nw."type", nw."status", 1
    FROM old_rows o JOIN new_rows nw ON nw."id" = o."id" JOIN "PostTerm" pt ON pt."postId" = o."id"
    WHERE o."type" IS DISTINCT FROM nw."type" OR o."status" IS DISTINCT FROM nw."status"
  ) AS m
  GROUP BY 1, 2, 3 HAVING sum(m.n) <> 0 ORDER BY 1, 2, 3
  ON CONFLICT ("termId", "type", "status") DO UPDATE SET "count" = c."count" + EXCLUDED."count";
  RETURN NULL;
END
$$;

CREATE TRIGGER "Post_term_count_update" AFTER UPDATE ON "Post" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION post_term_count_move();

CREATE FUNCTION post_term_count_unlink() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "PostTerm" WHERE "postId" = OLD."id";
  RETURN OLD;
END
$$;

CREATE TRIGGER "Post_term_count_delete" BEFORE DELETE ON "Post"
  FOR EACH ROW EXECUTE FUNCTION post_term_count_unlink();

-- Like a post's, a term's links are deleted before the term, so the PostTerm delete trigger runs
-- while the term's counters are still there and counts them down; then they are dropped. (A
-- cascade's delete fires its triggers only after the deleting statement's own AFTER triggers, too
-- late to drop the counters after it.)
CREATE FUNCTION post_term_count_drop() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "PostTerm" WHERE "termId" = OLD."id";
  DELETE FROM "PostTermCount" WHERE "termId" = OLD."id";
  RETURN OLD;
END
$$;

CREATE TRIGGER "Term_count_delete" BEFORE DELETE ON "Term"
  FOR EACH ROW EXECUTE FUNCTION post_term_count_drop();
