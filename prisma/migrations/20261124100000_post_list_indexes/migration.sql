-- Post lists that stay fast as the site grows (GET core/v2/posts and every post type's list; bench/growth.ts).

-- The default list (a type's posts of some status, newest first), its deep pages and its count:
-- the order's tie-breaker `id` is in the index, so a page is read in index order without a sort and
-- the count and the ids of a deep page come from the index alone.
DROP INDEX IF EXISTS "Post_type_status_date_idx";
CREATE INDEX IF NOT EXISTS "Post_type_status_date_id_idx" ON "Post" ("type", "status", "date", "id");

-- categories= / tags= filters: a term's posts from the index alone.
DROP INDEX IF EXISTS "PostTerm_termId_idx";
CREATE INDEX IF NOT EXISTS "PostTerm_termId_postId_idx" ON "PostTerm" ("termId", "postId");

-- search=: WordPress matches each word with LIKE '%word%' on title, excerpt and content (ILIKE
-- here); trigram indexes answer that without reading every post. pg_trgm is contrib on
-- PostgreSQL (trusted: a database owner may create it) and loaded by lib/db.ts on PGlite. Where
-- it cannot be created the search still works, only unindexed. Its operator classes are named
-- with the extension's schema, which need not be on this database's search path. A small
-- pending list (128 kB, not 4 MB): writes still add to the index in bulk, while a search never
-- reads a long unsorted list and the planner does not price the index out (PGlite has no
-- autovacuum to empty it).
DO $$
DECLARE
  trgm_schema text;
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public;
  EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'pg_trgm is not available (%): post search stays unindexed', SQLERRM;
  END;
  SELECT extnamespace::regnamespace::text INTO trgm_schema FROM pg_extension WHERE extname = 'pg_trgm';
  IF trgm_schema IS NOT NULL THEN
    EXECUTE format('CREATE INDEX IF NOT EXISTS "Post_title_trgm_idx" ON "Post" USING gin ("title" %s.gin_trgm_ops) WITH (gin_pending_list_limit = 128)', trgm_schema);
    EXECUTE format('CREATE INDEX IF NOT EXISTS "Post_excerpt_trgm_idx" ON "Post" USING gin ("excerpt" %s.gin_trgm_ops) WITH (gin_pending_list_limit = 128)', trgm_schema);
    EXECUTE format('CREATE INDEX IF NOT EXISTS "Post_content_trgm_idx" ON "Post" USING gin ("content" %s.gin_trgm_ops) WITH (gin_pending_list_limit = 128)', trgm_schema);
  END IF;
END
$$;
