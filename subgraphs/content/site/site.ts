// Site options (like wp_options) and the site clock: WordPress stores each date twice, in the
// site's time zone and in GMT, and writes them without a zone.
import type { Database, PrismaClient } from "../../../lib/db.ts";
import { keptUntilWrite } from "../../../lib/kept-until-write.ts";

export interface SiteOptions {
  blogname: string;
  blogdescription: string;
  gmt_offset: string;
  timezone_string: string;
  default_category: number;
  permalink_structure: string;
  posts_per_page: number;
  date_format: string;
  time_format: string;
  start_of_week: number;
  default_comment_status: string;
  default_ping_status: string;
  use_smilies: boolean;
  default_post_format: string;
  page_for_posts: number;
  page_on_front: number;
  show_on_front: string;
  /** Absent until set: WordPress reports an unset site logo as null. */
  site_logo?: number;
  site_icon: number;
  WPLANG: string;
  admin_email: string;
}

export const DEFAULT_OPTIONS: SiteOptions = {
  blogname: "Partner Site",
  blogdescription: "",
  gmt_offset: "0",
  timezone_string: "",
  default_category: 1,
  permalink_structure: "/%postname%/",
  posts_per_page: 10,
  date_format: "F j, Y",
  time_format: "g:i a",
  start_of_week: 1,
  default_comment_status: "open",
  default_ping_status: "open",
  use_smilies: true,
  default_post_format: "0",
  page_for_posts: 0,
  page_on_front: 0,
  show_on_front: "posts",
  site_icon: 0,
  WPLANG: "",
  admin_email: "admin@example.com",
};

export async function loadOptions(prisma: PrismaClient): Promise<SiteOptions> {
  const rows = await prisma.option.findMany();
  const stored = Object.fromEntries(rows.map((r) => [r.name, r.value]));
  return { ...DEFAULT_OPTIONS, ...stored } as SiteOptions;
}

/** The site options, kept across requests until this process writes the Option table (lib/kept-until-write.ts). */
export const siteOptions = (db: Database): Promise<SiteOptions> => keptUntilWrite(db, "content:options", ["Option"], () => loadOptions(db.prisma));

/** Offset of the site's zone from GMT, in minutes, at a given instant. */
export function offsetMinutes(options: Pick<SiteOptions, "gmt_offset" | "timezone_string">, at: Date): number {
  if (options.timezone_string) {
    const parts = new Intl.DateTimeFormat("en-US", {
      timeZone: options.timezone_string, hourCycle: "h23",
      year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit",
    }).formatToParts(at);
    const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
    const local = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
    return Math.round((local - Math.floor(at.getTime() / 1000) * 1000) / 60000);
  }
  return Math.round(Number(options.gmt_offset || 0) * 60);
}

/** A zone-less WordPress date string ("2024-05-01T10:00:00") from a stored naive timestamp. */
export const formatWpDate = (d: Date): string => d.toISOString().slice(0, 19);

export interface SiteClock {
  /** GMT instant → site-local naive timestamp. */
  toLocal(gmt: Date): Date;
  /** Site-local naive timestamp → GMT instant. */
  toGmt(local: Date): Date;
}

export function siteClock(options: Pick<SiteOptions, "gmt_offset" | "timezone_string">): SiteClock {
  return {
    toLocal: (gmt) => new Date(gmt.getTime() + offsetMinutes(options, gmt) * 60000),
    toGmt: (local) => new Date(local.getTime() - offsetMinutes(options, local) * 60000),
  };
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * Parses a REST date-time. A value with an offset (or Z) is an instant; one without is read as
 * site-local time (or GMT for the *_gmt fields), as WordPress does. Returns both forms.
 */
export function parseWpDate(value: string, clock: SiteClock, isGmt: boolean): { local: Date; gmt: Date } | undefined {
  const m = DATE_TIME.exec(value.trim());
  if (!m) return undefined;
  const naive = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]));
  if (Number.isNaN(naive.getTime())) return undefined;
  if (m[8]) {
    const zone = m[8].toUpperCase();
    let offset = 0;
    if (zone !== "Z") {
      const sign = zone.startsWith("-") ? -1 : 1;
      const digits = zone.slice(1).replace(":", "");
      offset = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0));
    }
    const gmt = new Date(naive.getTime() - offset * 60000);
    return { gmt, local: clock.toLocal(gmt) };
  }
  return isGmt ? { gmt: naive, local: clock.toLocal(naive) } : { local: naive, gmt: clock.toGmt(naive) };
}

/** Drops fractional seconds: WordPress dates have whole seconds. */
export const wholeSeconds = (d: Date): Date => new Date(Math.floor(d.getTime() / 1000) * 1000);

/** What the `site` query resolves to; the fields that need their own query resolve from it. */
export interface SiteSummary {
  name: string;
  description: string;
  url: string;
  home: string;
  gmtOffset: string;
  timezoneString: string;
  logoId: number;
  iconId: number;
}
