// core/v2/settings: the site options WordPress registers with show_in_rest, read and written
// through the Option model the way WP_REST_Settings_Controller and sanitize_option do.
// Only administrators (manage_options) may read or change them.
import type { Prisma } from "../../../generated/prisma/client.ts";
import type { ErrorCode } from "../../../lib/error-codes.ts";
import { fail } from "../../../lib/errors.ts";
import { COMMENT_STATUSES } from "../../../lib/wordpress/post-values.ts";
import type { ContentContext } from "../context.ts";
import { hasCap, refuse, type Viewer } from "../permissions.ts";
import { loadOptions, offsetMinutes, type SiteOptions } from "./site.ts";

export interface SiteSettings {
  title: string | null;
  description: string | null;
  url: string;
  email: string | null;
  timezone: string | null;
  dateFormat: string | null;
  timeFormat: string | null;
  startOfWeek: number | null;
  language: string;
  useSmilies: boolean | null;
  defaultCategory: number | null;
  defaultPostFormat: string | null;
  postsPerPage: number | null;
  showOnFront: string | null;
  pageOnFront: number | null;
  pageForPosts: number | null;
  defaultPingStatus: string | null;
  defaultCommentStatus: string | null;
  siteLogo: number | null;
  siteIcon: number | null;
  /** Hours from GMT now (from the time zone when one is set); not a REST setting. */
  gmtOffset: number;
}

/** A write: a field set to null resets the option to its default (WordPress deletes it). */
export type SiteSettingsInput = Partial<Record<Exclude<keyof SiteSettings, "gmtOffset">, unknown>> & { gmtOffset?: number | null };

type Kind = "string" | "integer" | "boolean";

/** Setting (GraphQL name) → its option and REST name, in WordPress's registration order. */
export const SETTINGS: readonly { field: Exclude<keyof SiteSettings, "gmtOffset">; rest: string; option: string; kind: Kind }[] = [
  { field: "title", rest: "title", option: "blogname", kind: "string" },
  { field: "description", rest: "description", option: "blogdescription", kind: "string" },
  { field: "url", rest: "url", option: "siteurl", kind: "string" },
  { field: "email", rest: "email", option: "admin_email", kind: "string" },
  { field: "timezone", rest: "timezone", option: "timezone_string", kind: "string" },
  { field: "dateFormat", rest: "date_format", option: "date_format", kind: "string" },
  { field: "timeFormat", rest: "time_format", option: "time_format", kind: "string" },
  { field: "startOfWeek", rest: "start_of_week", option: "start_of_week", kind: "integer" },
  { field: "language", rest: "language", option: "WPLANG", kind: "string" },
  { field: "useSmilies", rest: "use_smilies", option: "use_smilies", kind: "boolean" },
  { field: "defaultCategory", rest: "default_category", option: "default_category", kind: "integer" },
  { field: "defaultPostFormat", rest: "default_post_format", option: "default_post_format", kind: "string" },
  { field: "postsPerPage", rest: "posts_per_page", option: "posts_per_page", kind: "integer" },
  { field: "showOnFront", rest: "show_on_front", option: "show_on_front", kind: "string" },
  { field: "pageOnFront", rest: "page_on_front", option: "page_on_front", kind: "integer" },
  { field: "pageForPosts", rest: "page_for_posts", option: "page_for_posts", kind: "integer" },
  { field: "defaultPingStatus", rest: "default_ping_status", option: "default_ping_status", kind: "string" },
  { field: "defaultCommentStatus", rest: "default_comment_status", option: "default_comment_status", kind: "string" },
  { field: "siteLogo", rest: "site_logo", option: "site_logo", kind: "integer" },
  { field: "siteIcon", rest: "site_icon", option: "site_icon", kind: "integer" },
];


/** Reading and writing the settings needs manage_options. */
export const canManageOptions = (viewer: Viewer | null): boolean => hasCap(viewer, "manage_options");

function requireManageOptions(ctx: ContentContext): void {
  if (!canManageOptions(ctx.viewer)) refuse(ctx, "rest_forbidden");
}

/** get_option is lossy, so WordPress casts each value to its registered type, and shows null for one that does not fit. */
function cast(value: unknown, kind: Kind): string | number | boolean | null {
  if (value === undefined || value === null) return null;
  if (kind === "string") return typeof value === "string" ? value : null;
  if (kind === "boolean") {
    if (typeof value === "boolean") return value;
    if (value === 1 || value === "1" || value === "true") return true;
    if (value === 0 || value === "0" || value === "false" || value === "") return false;
    return null;
  }
  const n = typeof value === "number" ? value : typeof value === "string" && /^\s*-?\d+\s*$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(n) ? n : null;
}

function settingsFrom(options: SiteOptions, home: string): SiteSettings {
  const stored = options as unknown as Record<string, unknown>;
  const value = <T>(option: string, kind: Kind) => cast(stored[option], kind) as T;
  const out: Record<string, unknown> = {};
  for (const s of SETTINGS) out[s.field] = value(s.option, s.kind);
  // The address comes from SITE_URL; an empty WPLANG means the default locale.
  out.url = home;
  out.language = options.WPLANG || "en_US";
  out.gmtOffset = offsetMinutes(options, new Date()) / 60;
  return out as unknown as SiteSettings;
}

export async function readSiteSettings(ctx: ContentContext): Promise<SiteSettings> {
  requireManageOptions(ctx);
  return settingsFrom(await loadOptions(ctx.prisma), ctx.config.siteUrl);
}

const invalid = (param: string, code: ErrorCode, message: string): never => fail(code, { message, status: 400, data: { param } });

/** esc_html, which sanitize_option applies to the site title and tagline. */
const escHtml = (s: string) =>
  s.replace(/&(?!(?:[a-zA-Z][a-zA-Z0-9]*|#\d+|#x[0-9a-fA-F]+);)/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#039;");
const stripTags = (s: string) => s.replace(/<[^>]*>/g, "");
const absint = (n: unknown) => Math.abs(Math.trunc(Number(n) || 0));

const KNOWN_ZONES = new Set([...Intl.supportedValuesOf("timeZone"), "UTC"]);
/** "UTC+5.5", "UTC-3", "UTC+5:30": the manual offsets WordPress's settings screen offers. */
const MANUAL_OFFSET = /^UTC([+-])(\d{1,2})(?:(?:\.(\d+))|:(\d{2}))?$/;

function manualOffset(zone: string): string | undefined {
  const m = MANUAL_OFFSET.exec(zone);
  if (!m) return undefined;
  const hours = Number(m[2]) + (m[3] ? Number(`0.${m[3]}`) : m[4] ? Number(m[4]) / 60 : 0);
  if (hours > 14) return undefined;
  return String(m[1] === "-" && hours !== 0 ? -hours : hours);
}

/**
 * Writes the settings that were sent, in one transaction, and answers with all of them. A value
 * that sanitize_option refuses (an unknown time zone, a language that is not installed) leaves the
 * option as it was, silently, as WordPress does.
 */
export async function updateSiteSettings(ctx: ContentContext, input: SiteSettingsInput): Promise<SiteSettings> {
  requireManageOptions(ctx);
  const writes = new Map<string, Prisma.InputJsonValue>();
  const resets: string[] = [];

  for (const s of SETTINGS) {
    if (!Object.hasOwn(input, s.field)) continue;
    const value = input[s.field];
    if (value === null || value === undefined) {
      if (s.field !== "url") resets.push(s.option);
      continue;
    }
    switch (s.field) {
      case "title": case "description": writes.set(s.option, escHtml(String(value))); break;
      case "url":
        if (String(value).replace(/\/+$/, "") !== ctx.config.siteUrl) {
          invalid("url", "rest_setting_read_only", "The site address is set by the SITE_URL configuration.");
        }
        break;
      case "email":
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(String(value))) invalid("email", "rest_invalid_email", "Invalid email address.");
        writes.set(s.option, String(value).trim());
        break;
      case "timezone": {
        const zone = String(value);
        const offset = manualOffset(zone);
        if (offset !== undefined) {
          writes.set("timezone_string", "");
          writes.set("gmt_offset", offset);
        } else if (zone === "" || KNOWN_ZONES.has(zone)) {
          writes.set("timezone_string", zone);
          // gmt_offset follows the zone, as WordPress's get_option('gmt_offset') does.
          if (zone) writes.set("gmt_offset", String(offsetMinutes({ timezone_string: zone, gmt_offset: "0" }, new Date()) / 60));
        }
        break;
      }
      case "dateFormat": case "timeFormat": writes.set(s.option, stripTags(String(value))); break;
      case "language":
        // No language packs are installed: only the default locale is available.
        if (value === "" || value === "en_US") writes.set(s.option, "");
        break;
      case "useSmilies": writes.set(s.option, value === true || value === 1 || value === "1"); break;
      case "postsPerPage": {
        let n = Math.trunc(Number(value)) || 1;
        if (n < -1) n = Math.abs(n);
        writes.set(s.option, n);
        break;
      }
      case "defaultPingStatus": case "defaultCommentStatus":
        if (!COMMENT_STATUSES.includes(String(value))) invalid(s.rest, "rest_not_in_enum", `${s.rest} is not one of open and closed.`);
        writes.set(s.option, String(value));
        break;
      case "siteLogo": writes.set(s.option, Math.trunc(Number(value))); break;
      case "startOfWeek": case "defaultCategory": case "pageOnFront": case "pageForPosts": case "siteIcon":
        writes.set(s.option, absint(value));
        break;
      default: writes.set(s.option, String(value));
    }
  }
  // GraphQL may set the offset directly; a manual offset clears the named time zone, as the settings screen does.
  if (input.gmtOffset !== undefined && input.gmtOffset !== null) {
    writes.set("gmt_offset", String(input.gmtOffset));
    writes.set("timezone_string", "");
  }

  await ctx.prisma.$transaction([
    ...(resets.length ? [ctx.prisma.option.deleteMany({ where: { name: { in: resets.filter((r) => !writes.has(r)) } } })] : []),
    ...[...writes].map(([name, value]) => ctx.prisma.option.upsert({ where: { name }, create: { name, value }, update: { value } })),
  ]);
  for (const name of [...writes.keys(), ...resets]) ctx.loaders.option.clear(name);
  return settingsFrom(await loadOptions(ctx.prisma), ctx.config.siteUrl);
}
