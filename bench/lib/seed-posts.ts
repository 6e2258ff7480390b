// Bulk seeding of a site's posts for benchmarks: set-based SQL (generate_series), not one savePost
// per post, so 100,000 posts take seconds. Posts are deterministic in their number g: author,
// date, status, title (one "topic" word each, so a search for a topic matches 1 % of posts),
// block content of common words, one category and two tags.
import type { Database } from "../../lib/db.ts";

/** Words titles and content are made of; none contains a topic word. */
const COMMON = (
  "the a of and to in is for on with as by at from that this it be are was were will can our your their new old first last " +
  "good great small large early late quick slow open close public private simple clear local global daily weekly team work " +
  "plan week year month day time people place story note idea guide update report review study project event news life home"
).split(" ");

/** Search targets: each is in the title of one post in TOPICS.length, and nowhere else. */
export const TOPICS = (
  "lighthouse meridian quartzite nebulous zephyrine obsidian marmalade tundraland pinecrest harborview velvetine cobblestone " +
  "driftwood emberglow foxglove glacierpoint hazelnut ironbridge juniperus kestrelwing lavenderfield moonstone nightingale " +
  "orchardside peppercorn quillfeather riverbend saffronia thistledown umbrellabird vineyardhill willowbrook xylophonic " +
  "yellowtail zucchinifield amberwave bluebellwood canyonridge dandelionseed eaglecrest fernhollow goldenrod heatherhill " +
  "islandcove jasminevine kelpforest lemongrass maplegrove nutmegtree oakenshield palmgrove quailrun rosemarybush " +
  "sagebrushland tamarindo upstreamer valleyforge wildflowery yarrowfield zinniabed aspenleaf birchwood cedarpoint " +
  "dogwoodlane elmstreet firtreehill gingerroot hollyberry ivyleague jadestone kiwifruit lilypad mistletoe nectarine " +
  "olivegrove poppyseed quincejam redwoodpark sequoiatree tulipfield urchinreef violetsky wisteriavine yewhedge zestylime " +
  "acornhill bramblebush cloverleaf daisychain elderberry figtree grapevine honeysuckle irisbloom hawthorn pumpkinpatch " +
  "snowdrift sunflowerfield starfishbay walnutgrove"
).split(" ");

export const CATEGORIES = 20;
export const TAGS = 200;
const AUTHORS = 20;

for (const topic of TOPICS) {
  if ([...COMMON, ...TOPICS].some((w) => w !== topic && w.includes(topic))) throw new Error(`"${topic}" is part of another word`);
}

const sqlArray = (words: string[]) => `ARRAY[${words.map((w) => `'${w}'`).join(",")}]`;

export interface SeededSite { categoryIds: number[]; tagIds: number[]; authorIds: number[] }

/** Authors, categories and tags the posts are spread over. */
export async function seedTaxonomy(db: Database): Promise<SeededSite> {
  const p = db.prisma;
  const authors = await p.$queryRawUnsafe<{ id: number }[]>(`
    INSERT INTO "User" (login, email, name, nicename, roles)
    SELECT 'bench' || n, 'bench' || n || '@example.test', 'Bench Author ' || n, 'bench' || n, ARRAY['author']
    FROM generate_series(1, ${AUTHORS}) AS n RETURNING id`);
  const terms = async (taxonomy: string, count: number, name: string) => (await p.$queryRawUnsafe<{ id: number }[]>(`
    INSERT INTO "Term" (taxonomy, name, slug)
    SELECT '${taxonomy}', '${name} ' || n, '${taxonomy}-bench-' || n FROM generate_series(1, ${count}) AS n RETURNING id`)).map((t) => t.id);
  return { authorIds: authors.map((a) => a.id), categoryIds: await terms("category", CATEGORIES, "Topic"), tagIds: await terms("post_tag", TAGS, "Tag") };
}

/** Posts g in [from, to] (ids 1,000,000 + g), with their terms; every 20th is a draft, the rest published, newer g newer. */
export async function seedPosts(db: Database, site: SeededSite, from: number, to: number, options: { analyze?: boolean } = {}): Promise<void> {
  const home = "http://localhost";
  const p = db.prisma;
  const word = (expr: string) => `(${sqlArray(COMMON)})[1 + (${expr}) % ${COMMON.length}]`;
  const sentence = (k: number) => Array.from({ length: 12 }, (_, i) => word(`g * ${7 + k * 13 + i * 31} + ${i * 17 + k}`)).join(" || ' ' || ");
  const paragraph = (k: number) => `'<!-- wp:paragraph -->\n<p>' || ${sentence(k)} || '. ' || ${sentence(k + 5)} || '.</p>\n<!-- /wp:paragraph -->'`;
  const date = `(timestamp '2015-01-01' + g * interval '37 minutes')`;
  const id = "1000000 + g";
  await p.$executeRawUnsafe(`
    INSERT INTO "Post" (id, type, status, slug, title, content, excerpt, "authorId", date, "dateGmt", modified, "modifiedGmt", "commentStatus", "pingStatus", guid)
    SELECT ${id}, 'post', CASE WHEN g % 20 = 0 THEN 'draft' ELSE 'publish' END, 'bench-post-' || g,
      initcap(${word("g * 3")}) || ' ' || (${sqlArray(TOPICS)})[1 + g % ${TOPICS.length}] || ' ' || ${word("g * 11 + 5")} || ' ' || ${word("g * 19 + 2")},
      ${paragraph(1)} || '\n\n' || ${paragraph(2)} || '\n\n' || ${paragraph(3)}, '',
      (${sqlArray(site.authorIds.map(String))})[1 + g % ${site.authorIds.length}]::int, ${date}, ${date}, ${date}, ${date}, 'open', 'open',
      '${home}/?p=' || (${id})
    FROM generate_series(${from}, ${to}) AS g`);
  const pick = (ids: number[], expr: string) => `(${sqlArray(ids.map(String))})[1 + (${expr}) % ${ids.length}]::int`;
  await p.$executeRawUnsafe(`
    INSERT INTO "PostTerm" ("postId", "termId", "termOrder")
    SELECT ${id}, ${pick(site.categoryIds, "g")}, 0 FROM generate_series(${from}, ${to}) AS g
    UNION ALL SELECT ${id}, ${pick(site.tagIds, "g")}, 0 FROM generate_series(${from}, ${to}) AS g
    UNION ALL SELECT ${id}, ${pick(site.tagIds, "g * 7 + 3")}, 1 FROM generate_series(${from}, ${to}) AS g
    ON CONFLICT DO NOTHING`);
  await p.$executeRawUnsafe(`SELECT setval(pg_get_serial_sequence('"Post"', 'id'), (SELECT max(id) FROM "Post"))`);
  if (options.analyze === false) return;
  await p.$executeRawUnsafe(`ANALYZE "Post"`);
  await p.$executeRawUnsafe(`ANALYZE "PostTerm"`);
}

/** Runs a bulk load as an import would: the tables' secondary indexes dropped first, then built once. */
export async function withoutSecondaryIndexes(db: Database, tables: string[], load: () => Promise<void>): Promise<void> {
  const p = db.prisma;
  const indexes = await p.$queryRawUnsafe<{ indexname: string; indexdef: string }[]>(
    `SELECT indexname::text AS indexname, indexdef FROM pg_indexes WHERE tablename = ANY($1::text[]) AND schemaname = current_schema() AND indexname NOT LIKE '%_pkey'`, tables);
  for (const { indexname } of indexes) await p.$executeRawUnsafe(`DROP INDEX "${indexname}"`);
  await load();
  for (const { indexdef } of indexes) await p.$executeRawUnsafe(indexdef);
  for (const table of tables) await p.$executeRawUnsafe(`ANALYZE "${table}"`);
}
