// Site health (WordPress's WP_Site_Health tests, as site-health/v1 serves them), each looking at
// this system rather than at a PHP install: the database (reached, which server, how fast), every
// subgraph's server (the "loopback" of a federated site), the uploads directory (writable, its
// size), the site's address (HTTPS), the Authorization header, response time without a page
// cache. Where WordPress's check is about something this system does not have (background core
// updates, talking to WordPress.org), the result says so as a good result with its reason, rather
// than pretending to have checked. Results keep WordPress's shape and wording where they apply.
import fs from "node:fs/promises";
import path from "node:path";
import { can } from "../../../lib/capabilities.ts";
import type { Config } from "../../../lib/config.ts";
import { fail } from "../../../lib/errors.ts";
import { createHttpClient, type HttpClient } from "../../../lib/http-client.ts";
import type { Identity } from "../../../lib/identity.ts";
import type { PrismaClient } from "../../../lib/db.ts";
import { subgraphUrl } from "../../../lib/subgraph-peers.ts";

export type HealthStatus = "good" | "recommended" | "critical";

export interface HealthResult {
  label: string;
  status: HealthStatus;
  badge: { label: "Security" | "Performance"; color: string };
  description: string;
  actions: string;
  test: string;
}

export const HEALTH_TESTS = [
  "background_updates", "loopback_requests", "https_status", "dotorg_communication", "authorization_header", "page_cache", "sql_server", "file_uploads",
] as const;
export type HealthTest = (typeof HEALTH_TESTS)[number];

/** WordPress maps view_site_health_checks to install_plugins: administrators. */
export const canViewSiteHealth = (identity: Identity): boolean => can(identity.site?.roles, "install_plugins", identity.site?.scope);

/** A refusal as WordPress's REST server gives a failed permission callback. */
export function requireSiteHealth(identity: Identity): void {
  if (!canViewSiteHealth(identity)) fail("rest_forbidden", { signedIn: identity.site !== undefined });
}

/** What the checks look at; tests hand in their own. */
export interface HealthDeps {
  config: Config;
  prisma: PrismaClient;
  identity: Identity;
  /** Where each subgraph's server is (defaults to the addresses this process knows). */
  subgraphs?: Record<string, string>;
  /** The client that reaches the subgraphs (defaults to one allowed to reach their hosts only). */
  http?: HttpClient;
  now?: () => number;
}

/** WordPress's response time threshold for the page cache check (page_cache_response_time_threshold). */
export const RESPONSE_TIME_THRESHOLD_MS = 600;

const p = (...paragraphs: string[]) => paragraphs.map((t) => `<p>${t}</p>`).join("");
const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const ms = (n: number) => `${Math.round(n)} ms`;
const result = (test: HealthTest, badge: HealthResult["badge"]["label"], status: HealthStatus, label: string, description: string, actions = ""): HealthResult =>
  ({ label, status, badge: { label: badge, color: "blue" }, description, actions, test });

function subgraphAddresses(deps: HealthDeps): Record<string, string> {
  if (deps.subgraphs) return deps.subgraphs;
  const names = ["content", "extensions", "gateway"] as const;
  return Object.fromEntries(names.map((name) => [name, subgraphUrl(deps.config, name)]));
}

/** A client allowed to reach exactly the subgraphs' hosts (they live on private addresses). */
function internalClient(deps: HealthDeps, addresses: Record<string, string>): HttpClient {
  return deps.http ?? createHttpClient({ allowedHosts: Object.values(addresses).map((u) => new URL(u).hostname), timeoutMs: 3000 });
}

async function timed<T>(now: () => number, run: () => Promise<T>): Promise<{ ok: true; value: T; ms: number } | { ok: false; error: string; ms: number }> {
  const start = now();
  try {
    const value = await run();
    return { ok: true, value, ms: now() - start };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error), ms: now() - start };
  }
}

/** Each subgraph's /health, timed. */
async function probeSubgraphs(deps: HealthDeps) {
  const now = deps.now ?? (() => performance.now());
  const addresses = subgraphAddresses(deps);
  const client = internalClient(deps, addresses);
  return Promise.all(Object.entries(addresses).map(async ([name, url]) => {
    const probe = await timed(now, async () => {
      const response = await client.request(url.replace(/\/graphql$/, "/health"), { timeoutMs: 3000, redirects: 0 });
      if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
      return response.status;
    });
    return { name, url, ...probe };
  }));
}

async function probeDatabase(deps: HealthDeps) {
  const now = deps.now ?? (() => performance.now());
  return timed(now, async () => {
    const rows = await deps.prisma.$queryRawUnsafe<{ version: string }[]>("SELECT version() AS version");
    return rows[0]?.version ?? "";
  });
}

const uploadsDir = (config: Config) => path.join(config.dataDir, "uploads");

async function backgroundUpdates(): Promise<HealthResult> {
  return result("background_updates", "Security", "good", "Background updates are not used by this site", p(
    "This site does not update itself in the background: a new version is installed by whoever deploys it (a new release, <code>npm install</code>, a restart), so there are no automatic updates that could fail.",
  ));
}

async function loopbackRequests(deps: HealthDeps): Promise<HealthResult> {
  const [subgraphs, database] = await Promise.all([probeSubgraphs(deps), probeDatabase(deps)]);
  const lines = [
    ...subgraphs.map((s) => `${escape(s.name)} subgraph (${escape(s.url)}): ${s.ok ? `answered in ${ms(s.ms)}` : `<strong>not reached</strong> (${escape(s.error)})`}`),
    `database: ${database.ok ? `answered in ${ms(database.ms)}` : `<strong>not reached</strong> (${escape(database.error)})`}`,
  ];
  const list = `<ul>${lines.map((l) => `<li>${l}</li>`).join("")}</ul>`;
  const why = "Loopback requests are how the parts of this site reach each other: the router asks each subgraph, and the subgraphs ask the database.";
  if (subgraphs.every((s) => s.ok) && database.ok) {
    return result("loopback_requests", "Performance", "good", "Your site can perform loopback requests", p(why) + list);
  }
  return result("loopback_requests", "Performance", "critical", "Your site could not complete a loopback request", p(why, "A part of the site did not answer:") + list);
}

async function httpsStatus(deps: HealthDeps): Promise<HealthResult> {
  const why = "An HTTPS connection is a more secure way of browsing the web. Many services now have HTTPS as a requirement. HTTPS allows you to take advantage of new features that can increase site speed, improve search rankings, and gain the trust of your visitors by helping to protect their online privacy.";
  const url = deps.config.siteUrl;
  if (url.startsWith("https://")) return result("https_status", "Security", "good", "Your website is using an active HTTPS connection", p(why));
  return result("https_status", "Security", "recommended", "Your website does not use HTTPS", p(
    why, `The site's address is <code>${escape(url)}</code>. Set <code>SITE_URL</code> to its <code>https://</code> address once the site is served over HTTPS (for example behind a TLS-terminating proxy).`,
  ), `<p><a href="https://developer.wordpress.org/advanced-administration/security/https/" target="_blank" rel="noopener">Learn more about why you should use HTTPS</a></p>`);
}

async function dotorgCommunication(): Promise<HealthResult> {
  return result("dotorg_communication", "Security", "good", "Communication with WordPress.org is not needed", p(
    "WordPress sites ask WordPress.org for updates and translations. This site takes neither from there, so it does not need to reach it; the outbound requests it does make (oEmbed providers, link previews) go through one client that refuses private and local addresses.",
  ));
}

async function authorizationHeader(deps: HealthDeps): Promise<HealthResult> {
  const why = "The Authorization header is used by third-party applications you have approved for this site. Without this header, those apps cannot connect to your site.";
  if (deps.identity.site) return result("authorization_header", "Security", "good", "The Authorization header is working as expected", p(why, "This request was signed in with the credentials it carried in its Authorization header, so the header reaches the site."));
  return result("authorization_header", "Security", "recommended", "The authorization header is missing", p(why));
}

async function pageCache(deps: HealthDeps): Promise<HealthResult> {
  // Three timed requests to the content subgraph: the work behind every page and REST answer.
  const now = deps.now ?? (() => performance.now());
  const addresses = subgraphAddresses(deps);
  const client = internalClient(deps, addresses);
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = await timed(now, () => client.request(addresses.content.replace(/\/graphql$/, "/health"), { timeoutMs: 3000 }));
    if (t.ok) times.push(t.ms);
  }
  const why = "Page cache enhances the speed and performance of your site by saving and serving static pages instead of calling for a page every time a user visits.";
  if (times.length === 0) return result("page_cache", "Performance", "critical", "Unable to detect the presence of page cache", p(why, "The content subgraph did not answer."));
  const median = times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
  const found = p(why, `This site has no page cache: every page and REST answer is built when it is asked. The median response time of three requests to the content subgraph was ${ms(median)} (the threshold is ${RESPONSE_TIME_THRESHOLD_MS} ms).`);
  return median <= RESPONSE_TIME_THRESHOLD_MS
    ? result("page_cache", "Performance", "recommended", "Page cache is not detected but the server response time is OK", found)
    : result("page_cache", "Performance", "critical", "Page cache is not detected and the server response time is slow", found);
}

async function sqlServer(deps: HealthDeps): Promise<HealthResult> {
  const database = await probeDatabase(deps);
  const why = "The SQL server is a required piece of software for the database WordPress uses to store all your site's content and settings.";
  if (!database.ok) return result("sql_server", "Performance", "critical", "The database does not answer", p(why, `The query failed: ${escape(database.error)}`));
  const embedded = /^file:|^memory:/.test(deps.config.databaseUrl) || !deps.config.databaseUrl.startsWith("postgres");
  return result("sql_server", "Performance", "good", "The database answers", p(
    why, `${escape(database.value)}${embedded ? " (embedded PGlite)" : ""} answered in ${ms(database.ms)}.`,
  ));
}

async function fileUploads(deps: HealthDeps): Promise<HealthResult> {
  const dir = uploadsDir(deps.config);
  const why = "Media are uploaded into the uploads directory, from where the site serves them.";
  try {
    await fs.mkdir(dir, { recursive: true });
    await fs.access(dir, fs.constants.W_OK);
    return result("file_uploads", "Performance", "good", "Files can be uploaded", p(why, `The directory <code>${escape(dir)}</code> exists and is writable.`));
  } catch (error) {
    return result("file_uploads", "Performance", "critical", "Files cannot be uploaded", p(why, `The directory <code>${escape(dir)}</code> is not writable: ${escape((error as Error).message)}`));
  }
}

/** Runs one check. */
export async function runHealthTest(deps: HealthDeps, test: HealthTest): Promise<HealthResult> {
  requireSiteHealth(deps.identity);
  switch (test) {
    case "background_updates": return backgroundUpdates();
    case "loopback_requests": return loopbackRequests(deps);
    case "https_status": return httpsStatus(deps);
    case "dotorg_communication": return dotorgCommunication();
    case "authorization_header": return authorizationHeader(deps);
    case "page_cache": return pageCache(deps);
    case "sql_server": return sqlServer(deps);
    case "file_uploads": return fileUploads(deps);
  }
}

/** size_format($bytes, 2): binary units, two decimals. */
export function sizeFormat(bytes: number): string {
  const units: [string, number][] = [["TB", 1024 ** 4], ["GB", 1024 ** 3], ["MB", 1024 ** 2], ["KB", 1024], ["B", 1]];
  if (bytes === 0) return "0.00 B";
  const [unit, magnitude] = units.find(([, m]) => bytes >= m) ?? ["B", 1];
  return `${(bytes / magnitude).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${unit}`;
}

export interface SizeView { size: string; debug: string; raw: number }
const sizeView = (bytes: number): SizeView => ({ size: sizeFormat(bytes), debug: `${sizeFormat(bytes)} (${bytes} bytes)`, raw: bytes });

/** The bytes of every file under a directory (a missing directory is empty). */
export async function directorySize(dir: string): Promise<number> {
  let total = 0;
  let entries: import("node:fs").Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await directorySize(full);
    else if (entry.isFile()) total += (await fs.stat(full)).size;
  }
  return total;
}

/** The tables (with their indexes and TOAST) of the schema this site uses, as WordPress sums data and index lengths. */
async function databaseSize(prisma: PrismaClient): Promise<number> {
  const rows = await prisma.$queryRawUnsafe<{ size: bigint | number | string | null }[]>(
    "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0)::bigint AS size FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'm')",
  );
  return Number(rows[0]?.size ?? 0);
}

/** site-health/v1/directory-sizes: uploads, database, total. */
export async function directorySizes(deps: HealthDeps): Promise<{ uploadsSize: SizeView; databaseSize: SizeView; totalSize: SizeView }> {
  requireSiteHealth(deps.identity);
  let uploads: number, database: number;
  try {
    [uploads, database] = await Promise.all([directorySize(uploadsDir(deps.config)), databaseSize(deps.prisma)]);
  } catch {
    return fail("not_available");
  }
  return { uploadsSize: sizeView(uploads), databaseSize: sizeView(database), totalSize: sizeView(uploads + database) };
}
