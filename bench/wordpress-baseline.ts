// WordPress's figures that `npm run bench` divides ours by. Source: issue 12 ("Fast: every core…"),
// measured side by side in one run on this 2-core machine: WordPress 6.1.9 behind nginx, php-fpm
// with 6 workers and opcache, MariaDB, seeded with the same 500 posts, authors, terms and images,
// wrk 20 s per row with keep-alive. Only requests/second were recorded, per connection count.
// Paths there were /wp-json/wp/v2/…; here the seed renamed the namespace to core/v2.

export type RowName = "posts" | "posts100" | "embed" | "post" | "create" | "batch";

export const WORDPRESS_REQ_PER_SEC: Record<RowName, Record<number, number>> = {
  posts: { 1: 32.6, 10: 62.6, 50: 61.5 },
  posts100: { 1: 6.9, 10: 12.7, 50: 12.6 },
  embed: { 1: 13.9, 10: 24.6, 50: 24.4 },
  post: { 1: 62.2, 10: 115.7, 50: 106.7 },
  create: { 1: 30.5, 10: 57.6 },
  batch: { 1: 2.0, 10: 3.6 },
};

/** Our side in the same run of the issue (before any of its levers), to read progress against. */
export const OURS_BEFORE_REQ_PER_SEC: Record<RowName, Record<number, number>> = {
  posts: { 1: 61.3, 10: 63.4, 50: 63.8 },
  posts100: { 1: 17.2, 10: 17.6, 50: 17.1 },
  embed: { 1: 23.5, 10: 23.2, 50: 22.7 },
  post: { 1: 105.3, 10: 114.9, 50: 114.6 },
  create: { 1: 35.7, 10: 38.2 },
  batch: { 1: 2.1, 10: 2.1 },
};

/** The targets, as multiples of WordPress's requests/second (reads at 10 and 50 connections). */
export const TARGET_VS_WORDPRESS: Record<RowName, number> = { posts: 10, posts100: 10, embed: 10, post: 10, create: 3, batch: 5 };
