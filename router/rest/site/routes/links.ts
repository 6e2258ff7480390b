// The compact-rel declaration WordPress appends to every `_links` object that uses `wp:` rels.
export const CURIES = [{ name: "wp", href: "https://api.w.org/{rel}", templated: true }];
