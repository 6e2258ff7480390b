// get_head and Post.seo.head: Yoast's head for a front-end address (title, description,
// robots, canonical, Open Graph, Twitter, and the schema.org graph as JSON-LD), both as the
// `html` Yoast prints and as its `json` object (keys are the tags' names with ":", " " and
// "-" turned into "_"; empty presenters left out).
import crypto from "node:crypto";
import { readMedia, readPosts, readSite, readTerm, resolveUri, type ContentAuthor, type ContentPost, type ContentTerm, type SiteInfo } from "./content-source.ts";
import { analysePosts, type AnalysedPost } from "./indexables.ts";
import { plainText } from "./analysis/text.ts";
import { getOption, seoError } from "./store.ts";
import { readSiteRepresentation, readSocialProfiles } from "./configuration.ts";
import type { ExtensionsContext } from "../context.ts";

export const YOAST_VERSION = "28.4";
const SEPARATOR = "-";
const LOCALE = "en_US";
const LANGUAGE_TAG = "en-US";

export interface Head { html: string; json: Record<string, unknown>; status: number }

type Robots = { index: string; follow: string; "max-snippet"?: string; "max-image-preview"?: string; "max-video-preview"?: string };

interface HeadParts {
  title: string;
  description?: string;
  robots: Robots;
  canonical?: string;
  ogType?: string;
  ogTitle: string;
  ogDescription?: string;
  ogUrl?: string;
  articlePublisher?: string;
  publishedTime?: string;
  modifiedTime?: string;
  ogImage?: { url: string; width?: number; height?: number; type?: string };
  author?: string;
  twitterSite?: string;
  twitterMisc?: Record<string, string>;
  schema: Record<string, unknown>;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const withSlash = (u: string) => (u.endsWith("/") ? u : `${u}/`);

/** An ISO date with an explicit +00:00 offset, as Yoast prints GMT dates. */
export function gmtIso(value: string): string {
  const d = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
  return Number.isNaN(d.getTime()) ? value : d.toISOString().replace(/\.\d{3}Z$/, "+00:00");
}

const indexRobots = (noindex: boolean, nofollow: boolean): Robots => (noindex
  ? { index: "noindex", follow: nofollow ? "nofollow" : "follow" }
  : { index: "index", follow: nofollow ? "nofollow" : "follow", "max-snippet": "max-snippet:-1", "max-image-preview": "max-image-preview:large", "max-video-preview": "max-video-preview:-1" });

function render(site: SiteInfo, p: HeadParts, status: number): Head {
  const json: Record<string, unknown> = { title: p.title };
  const lines: string[] = [`<!-- This site is optimized with the Yoast SEO plugin v${YOAST_VERSION} - https://yoast.com/product/yoast-seo-wordpress/ -->`, `<title>${esc(p.title)}</title>`];
  const meta = (attr: "name" | "property", key: string, value: string | undefined) => {
    if (!value) return;
    lines.push(`<meta ${attr}="${key}" content="${esc(value)}" />`);
  };
  if (p.description) { json.description = p.description; meta("name", "description", p.description); }
  json.robots = p.robots;
  meta("name", "robots", Object.values(p.robots).join(", "));
  if (p.canonical && p.robots.index === "index") { json.canonical = p.canonical; lines.push(`<link rel="canonical" href="${esc(p.canonical)}" />`); }
  const og: [string, string | undefined][] = [
    ["og:locale", LOCALE], ["og:type", p.ogType], ["og:title", p.ogTitle], ["og:description", p.ogDescription], ["og:url", p.ogUrl],
    ["og:site_name", site.name], ["article:publisher", p.articlePublisher], ["article:published_time", p.publishedTime], ["article:modified_time", p.modifiedTime],
  ];
  for (const [key, value] of og) if (value) { json[key.replace(/[: -]/g, "_")] = value; meta("property", key, value); }
  if (p.ogImage) {
    json.og_image = [{ ...(p.ogImage.width ? { width: p.ogImage.width } : {}), ...(p.ogImage.height ? { height: p.ogImage.height } : {}), url: p.ogImage.url, ...(p.ogImage.type ? { type: p.ogImage.type } : {}) }];
    meta("property", "og:image", p.ogImage.url);
    if (p.ogImage.width) meta("property", "og:image:width", String(p.ogImage.width));
    if (p.ogImage.height) meta("property", "og:image:height", String(p.ogImage.height));
    if (p.ogImage.type) meta("property", "og:image:type", p.ogImage.type);
  }
  if (p.author) { json.author = p.author; meta("name", "author", p.author); }
  json.twitter_card = "summary_large_image";
  meta("name", "twitter:card", "summary_large_image");
  if (p.twitterSite) { json.twitter_site = p.twitterSite; meta("name", "twitter:site", p.twitterSite); }
  if (p.twitterMisc && Object.keys(p.twitterMisc).length) {
    json.twitter_misc = p.twitterMisc;
    Object.entries(p.twitterMisc).forEach(([label, data], i) => { meta("name", `twitter:label${i + 1}`, label); meta("name", `twitter:data${i + 1}`, data); });
  }
  json.schema = p.schema;
  lines.push(`<script type="application/ld+json" class="yoast-schema-graph">${JSON.stringify(p.schema).replace(/<\//g, "<\\/")}</script>`);
  lines.push("<!-- / Yoast SEO plugin. -->");
  return { html: `${lines.join("\n")}\n`, json, status };
}

/** Organization or Person for the site, from the site representation settings (none when not set). */
async function publisher(ctx: ExtensionsContext, site: SiteInfo, home: string): Promise<Record<string, unknown> | null> {
  const rep = await readSiteRepresentation(ctx);
  const social = await readSocialProfiles(ctx);
  const sameAs = [social.facebookSite, social.twitterSite ? `https://x.com/${social.twitterSite.replace(/^@/, "")}` : "", ...social.otherSocialUrls].filter(Boolean);
  if (rep.companyOrPerson === "company" && rep.companyName) {
    return {
      "@type": "Organization", "@id": `${home}#organization`, name: rep.companyName, url: home,
      ...(rep.companyLogo ? { logo: { "@type": "ImageObject", inLanguage: LANGUAGE_TAG, "@id": `${home}#/schema/logo/image/`, url: rep.companyLogo, contentUrl: rep.companyLogo, caption: rep.companyName }, image: { "@id": `${home}#/schema/logo/image/` } } : {}),
      ...(sameAs.length ? { sameAs } : {}),
    };
  }
  if (rep.companyOrPerson === "person" && rep.companyOrPersonUserId) {
    return { "@type": ["Person", "Organization"], "@id": personId(home, rep.companyOrPersonUserId), name: site.name, ...(sameAs.length ? { sameAs } : {}) };
  }
  return null;
}

const personId = (home: string, key: string | number) => `${home}#/schema/person/${crypto.createHash("md5").update(String(key)).digest("hex")}`;

function webSite(site: SiteInfo, home: string, pub: Record<string, unknown> | null): Record<string, unknown> {
  return {
    "@type": "WebSite", "@id": `${home}#website`, url: home, name: site.name, description: site.description,
    ...(pub ? { publisher: { "@id": pub["@id"] } } : {}),
    potentialAction: [{ "@type": "SearchAction", target: { "@type": "EntryPoint", urlTemplate: `${home}?s={search_term_string}` }, "query-input": { "@type": "PropertyValueSpecification", valueRequired: true, valueName: "search_term_string" } }],
    inLanguage: LANGUAGE_TAG,
  };
}

const breadcrumb = (url: string, home: string, name: string | null) => ({
  "@type": "BreadcrumbList", "@id": `${url}#breadcrumb`,
  itemListElement: name === null
    ? [{ "@type": "ListItem", position: 1, name: "Home" }]
    : [{ "@type": "ListItem", position: 1, name: "Home", item: home }, { "@type": "ListItem", position: 2, name }],
});

/** The head of one post or page, analysed (its settings and reading time). */
export async function postHead(ctx: ExtensionsContext, analysed: AnalysedPost, site?: SiteInfo): Promise<Head> {
  site ??= await readSite(ctx);
  const { post, indexable, analysis } = analysed;
  const home = withSlash(site.home);
  const url = post.link;
  const name = indexable.title || "";
  const title = (indexable.seoTitle || `${name} ${SEPARATOR} ${site.name}`).trim();
  const excerpt = plainText(post.excerpt.rendered).replace(/\s*\[(?:…|&hellip;|\.\.\.)\]\s*$/, "…");
  const isPost = post.type === "post";
  const noindex = indexable.isRobotsNoindex === true || post.status.toLowerCase() !== "publish";
  const [pub, social, media] = await Promise.all([publisher(ctx, site, home), readSocialProfiles(ctx), readMedia(ctx, post.featuredMediaId)]);
  const canonical = indexable.canonical || url;
  const published = gmtIso(post.dateGmt);
  const modified = gmtIso(post.modifiedGmt);
  const author = post.author;
  const authorNode = isPost && author ? { "@type": "Person", "@id": personId(home, `${author.slug}${post.authorId}`), name: author.name, url: author.link } : null;
  const graph: Record<string, unknown>[] = [];
  if (isPost) {
    graph.push({
      "@type": "Article", "@id": `${url}#article`, isPartOf: { "@id": url },
      ...(authorNode ? { author: { name: authorNode.name, "@id": authorNode["@id"] } } : {}),
      headline: name, datePublished: published, dateModified: modified, mainEntityOfPage: { "@id": url }, wordCount: analysis.wordCount,
      ...(pub ? { publisher: { "@id": pub["@id"] } } : {}),
      ...(media ? { image: { "@id": `${url}#primaryimage` }, thumbnailUrl: media.sourceUrl } : {}),
      inLanguage: LANGUAGE_TAG,
    });
  }
  graph.push({
    "@type": "WebPage", "@id": url, url, name: title, isPartOf: { "@id": `${home}#website` },
    ...(media ? { primaryImageOfPage: { "@id": `${url}#primaryimage` }, image: { "@id": `${url}#primaryimage` }, thumbnailUrl: media.sourceUrl } : {}),
    datePublished: published, dateModified: modified,
    ...(indexable.metaDescription ? { description: indexable.metaDescription } : {}),
    breadcrumb: { "@id": `${url}#breadcrumb` }, inLanguage: LANGUAGE_TAG,
    potentialAction: [{ "@type": "ReadAction", target: [url] }],
  });
  if (media) graph.push({ "@type": "ImageObject", inLanguage: LANGUAGE_TAG, "@id": `${url}#primaryimage`, url: media.sourceUrl, contentUrl: media.sourceUrl, ...(media.width ? { width: media.width } : {}), ...(media.height ? { height: media.height } : {}), ...(media.alt ? { caption: media.alt } : {}) });
  graph.push(breadcrumb(url, home, name), webSite(site, home, pub));
  if (pub) graph.push(pub);
  if (authorNode) graph.push(authorNode);
  const minutes = analysis.readingTimeMinutes;
  return render(site, {
    title, description: indexable.metaDescription || undefined,
    robots: indexRobots(noindex, indexable.isRobotsNofollow), canonical,
    ogType: "article", ogTitle: title, ogDescription: indexable.metaDescription || excerpt || undefined, ogUrl: canonical,
    articlePublisher: social.facebookSite || undefined,
    publishedTime: isPost ? published : undefined, modifiedTime: modified,
    ogImage: media ? { url: media.sourceUrl, width: media.width ?? undefined, height: media.height ?? undefined, type: media.mimeType } : undefined,
    author: isPost ? author?.name : undefined,
    twitterSite: social.twitterSite ? `@${social.twitterSite.replace(/^@/, "")}` : undefined,
    twitterMisc: isPost && author ? { "Written by": author.name, "Est. reading time": `${Math.max(1, minutes)} minute${Math.max(1, minutes) === 1 ? "" : "s"}` } : undefined,
    schema: { "@context": "https://schema.org", "@graph": graph },
  }, 200);
}

async function homeHead(ctx: ExtensionsContext, site: SiteInfo): Promise<Head> {
  const home = withSlash(site.home);
  const [pub, social] = await Promise.all([publisher(ctx, site, home), readSocialProfiles(ctx)]);
  const title = site.description ? `${site.name} ${SEPARATOR} ${site.description}` : site.name;
  return render(site, {
    title, robots: indexRobots(false, false), canonical: home, ogType: "website", ogTitle: title, ogDescription: site.description || undefined, ogUrl: home,
    articlePublisher: social.facebookSite || undefined, twitterSite: social.twitterSite ? `@${social.twitterSite.replace(/^@/, "")}` : undefined,
    schema: { "@context": "https://schema.org", "@graph": [
      { "@type": "CollectionPage", "@id": home, url: home, name: title, isPartOf: { "@id": `${home}#website` }, ...(pub ? { about: { "@id": pub["@id"] } } : {}), ...(site.description ? { description: site.description } : {}), breadcrumb: { "@id": `${home}#breadcrumb` }, inLanguage: LANGUAGE_TAG },
      breadcrumb(home, home, null), webSite(site, home, pub), ...(pub ? [pub] : []),
    ] },
  }, 200);
}

async function termHead(ctx: ExtensionsContext, site: SiteInfo, term: ContentTerm): Promise<Head> {
  const home = withSlash(site.home);
  const pub = await publisher(ctx, site, home);
  const title = `${term.name} Archives ${SEPARATOR} ${site.name}`;
  return render(site, {
    title, robots: indexRobots(false, false), canonical: term.link, ogType: "article", ogTitle: title, ogUrl: term.link,
    schema: { "@context": "https://schema.org", "@graph": [
      { "@type": "CollectionPage", "@id": term.link, url: term.link, name: title, isPartOf: { "@id": `${home}#website` }, breadcrumb: { "@id": `${term.link}#breadcrumb` }, inLanguage: LANGUAGE_TAG },
      breadcrumb(term.link, home, term.name), webSite(site, home, pub), ...(pub ? [pub] : []),
    ] },
  }, 200);
}

/** An author archive: Yoast's ProfilePage with the author as a Person. */
async function authorHead(ctx: ExtensionsContext, site: SiteInfo, author: ContentAuthor): Promise<Head> {
  const home = withSlash(site.home);
  const pub = await publisher(ctx, site, home);
  const title = `${author.name}, Author at ${site.name}`;
  const person = { "@type": "Person", "@id": personId(home, `${author.slug}${author.databaseId}`), name: author.name, ...(author.description ? { description: author.description } : {}), mainEntityOfPage: { "@id": author.link } };
  return render(site, {
    title, robots: indexRobots(false, false), canonical: author.link, ogType: "profile", ogTitle: title, ogUrl: author.link,
    schema: { "@context": "https://schema.org", "@graph": [
      { "@type": "ProfilePage", "@id": author.link, url: author.link, name: title, isPartOf: { "@id": `${home}#website` }, breadcrumb: { "@id": `${author.link}#breadcrumb` }, inLanguage: LANGUAGE_TAG },
      breadcrumb(author.link, home, `Archives for ${author.name}`), webSite(site, home, pub), ...(pub ? [pub] : []), person,
    ] },
  }, 200);
}

async function notFoundHead(ctx: ExtensionsContext, site: SiteInfo): Promise<Head> {
  const home = withSlash(site.home);
  const pub = await publisher(ctx, site, home);
  const title = `Page not found ${SEPARATOR} ${site.name}`;
  return render(site, {
    title, robots: { index: "noindex", follow: "follow" }, ogTitle: title,
    schema: { "@context": "https://schema.org", "@graph": [webSite(site, home, pub), ...(pub ? [pub] : [])] },
  }, 404);
}

/** Whether the headless head route is on (Yoast's "enable_headless_rest_endpoints", default on). */
export const headlessEnabled = (ctx: ExtensionsContext) => getOption<boolean>(ctx, "wpseo.enable_headless_rest_endpoints", true);

/** get_head: the head of whatever the address shows on this site; an unknown address gets the 404 head. */
export async function headForUrl(ctx: ExtensionsContext, url: string): Promise<Head> {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
    if (!/^https?:$/.test(parsed.protocol)) throw new Error("scheme");
  } catch {
    throw seoError("rest_invalid_param", "Invalid parameter(s): url", 400, { params: { url: "Invalid parameter." } });
  }
  if (!(await headlessEnabled(ctx))) throw seoError("rest_no_route", "No route was found matching the URL and request method.", 404);
  const site = await readSite(ctx);
  const home = new URL(withSlash(site.home));
  if (parsed.host !== home.host) return notFoundHead(ctx, site);
  if (parsed.pathname === home.pathname && !parsed.search) return homeHead(ctx, site);
  const target = await resolveUri(ctx, parsed.pathname + parsed.search);
  if (target?.kind === "post" || target?.kind === "page") {
    const post = (await readPosts(ctx, [target.databaseId])).get(target.databaseId);
    if (post) {
      const [analysed] = await analysePosts(ctx, [post as ContentPost]);
      return postHead(ctx, analysed, site);
    }
  }
  if (target?.kind === "category" || target?.kind === "tag") {
    const term = await readTerm(ctx, target.kind, target.databaseId);
    if (term) return termHead(ctx, site, term);
  }
  if (target?.kind === "user" && target.author) return authorHead(ctx, site, target.author);
  return notFoundHead(ctx, site);
}
