// Yoast's first-time configuration: site representation, social profiles, tracking, the
// finished steps, and the capability check of the "personal" step. Values are Yoast's options
// (wpseo_titles, wpseo_social, wpseo), stored as SeoOption rows.
import { can } from "../../../lib/capabilities.ts";
import { askSubgraphAs } from "./peer.ts";
import { getOption, requireCapability, setOption } from "./store.ts";
import type { ExtensionsContext } from "../context.ts";

export interface SiteRepresentation {
  companyOrPerson: string;
  companyName: string;
  websiteName: string;
  companyLogo: string;
  companyLogoId: number;
  personLogo: string;
  personLogoId: number;
  companyOrPersonUserId: number;
}

export interface SocialProfiles { facebookSite: string; twitterSite: string; otherSocialUrls: string[] }

/** `{success, status, error?, failures?, data?}`: Yoast's configuration answers. */
export interface ConfigurationResult { success: boolean; status: number; error?: string | null; failures?: string[] | null; data?: string[] | null }

const REPRESENTATION_DEFAULTS: SiteRepresentation = {
  companyOrPerson: "company", companyName: "", websiteName: "", companyLogo: "", companyLogoId: 0, personLogo: "", personLogoId: 0, companyOrPersonUserId: 0,
};

export const readSiteRepresentation = async (ctx: ExtensionsContext): Promise<SiteRepresentation> =>
  ({ ...REPRESENTATION_DEFAULTS, ...(await getOption<Partial<SiteRepresentation>>(ctx, "wpseo_titles.site_representation", {})) });

export const readSocialProfiles = async (ctx: ExtensionsContext): Promise<SocialProfiles> =>
  ({ facebookSite: "", twitterSite: "", otherSocialUrls: [], ...(await getOption<Partial<SocialProfiles>>(ctx, "wpseo_social", {})) });

const isUrl = (value: string) => {
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
};

export interface SiteRepresentationInput {
  companyOrPerson: string;
  companyName?: string | null;
  websiteName?: string | null;
  companyLogo?: string | null;
  companyLogoId?: number | null;
  personLogo?: string | null;
  personLogoId?: number | null;
  companyOrPersonUserId?: number | null;
  description?: string | null;
}

/** Saves the fields given; a value an option refuses (a logo that is not a URL, a negative id) is reported in `failures`. */
export async function setSiteRepresentation(ctx: ExtensionsContext, input: SiteRepresentationInput): Promise<ConfigurationResult> {
  requireCapability(ctx, "wpseo_manage_options");
  const current = await readSiteRepresentation(ctx);
  const failures: string[] = [];
  const next: SiteRepresentation = { ...current };
  const checks: [keyof SiteRepresentationInput, string, (v: never) => boolean][] = [
    ["companyOrPerson", "company_or_person", (v: string) => v === "company" || v === "person"],
    ["companyName", "company_name", () => true],
    ["websiteName", "website_name", () => true],
    ["companyLogo", "company_logo", (v: string) => v === "" || isUrl(v)],
    ["companyLogoId", "company_logo_id", (v: number) => Number.isInteger(v) && v >= 0],
    ["personLogo", "person_logo", (v: string) => v === "" || isUrl(v)],
    ["personLogoId", "person_logo_id", (v: number) => Number.isInteger(v) && v >= 0],
    ["companyOrPersonUserId", "company_or_person_user_id", (v: number) => Number.isInteger(v) && v >= 0],
  ];
  for (const [key, name, ok] of checks) {
    const value = input[key];
    if (value === undefined || value === null) continue;
    if (!(ok as (v: unknown) => boolean)(value)) failures.push(name);
    else (next as unknown as Record<string, unknown>)[key] = typeof value === "string" ? value.trim() : value;
  }
  await setOption(ctx, "wpseo_titles.site_representation", { ...next });
  if (input.description !== undefined && input.description !== null) {
    try {
      await askSubgraphAs(ctx, "content", "mutation($d: String) { updateSiteSettings(input: { description: $d }) { description } }", { d: input.description });
    } catch {
      failures.push("description");
    }
  }
  return failures.length === 0 ? { success: true, status: 200 } : { success: false, status: 500, error: "Could not save some options in the database", failures };
}

/** A Twitter/X username from a handle or a profile address (Yoast keeps the bare name). */
export function twitterUsername(value: string): string | null {
  const v = value.trim();
  if (v === "") return "";
  const m = v.match(/^(?:https?:\/\/(?:www\.)?(?:twitter|x)\.com\/)?@?([A-Za-z0-9_]{1,15})\/?$/);
  return m ? m[1] : null;
}

export async function setSocialProfiles(ctx: ExtensionsContext, input: { facebookSite?: string | null; twitterSite?: string | null; otherSocialUrls?: string[] | null }): Promise<ConfigurationResult> {
  requireCapability(ctx, "wpseo_manage_options");
  const current = await readSocialProfiles(ctx);
  const failures: string[] = [];
  if (input.facebookSite !== undefined && input.facebookSite !== null) {
    if (input.facebookSite === "" || isUrl(input.facebookSite)) current.facebookSite = input.facebookSite.trim();
    else failures.push("facebook_site");
  }
  if (input.twitterSite !== undefined && input.twitterSite !== null) {
    const name = twitterUsername(input.twitterSite);
    if (name === null) failures.push("twitter_site");
    else current.twitterSite = name;
  }
  if (input.otherSocialUrls) {
    const kept: string[] = [];
    input.otherSocialUrls.forEach((url, i) => {
      if (isUrl(url)) kept.push(url.trim());
      else if (url !== "") failures.push(`other_social_urls-${i}`);
    });
    if (!failures.some((f) => f.startsWith("other_social_urls"))) current.otherSocialUrls = kept;
  }
  if (failures.length === 0) await setOption(ctx, "wpseo_social", { ...current });
  return failures.length === 0 ? { success: true, status: 200 } : { success: false, status: 200, error: "Could not save some options in the database", failures };
}

/** Whether the caller may edit that user's profile (WordPress's edit_user): themself, or whoever may edit users. */
export function checkCapability(ctx: ExtensionsContext, userId: number): ConfigurationResult {
  requireCapability(ctx, "wpseo_manage_options");
  const site = ctx.identity.site;
  const allowed = !!site && (site.userId === userId || can(site.roles, "edit_users", site.scope));
  return allowed ? { success: true, status: 200 } : { success: false, status: 403 };
}

export async function setTracking(ctx: ExtensionsContext, tracking: boolean): Promise<ConfigurationResult> {
  requireCapability(ctx, "wpseo_manage_options");
  const current = await getOption<boolean | null>(ctx, "wpseo.tracking", null);
  if (current !== tracking) {
    await setOption(ctx, "wpseo.toggled_tracking", true);
    await setOption(ctx, "wpseo.tracking", tracking);
  }
  return { success: true, status: 200 };
}

export const readTracking = (ctx: ExtensionsContext) => getOption<boolean | null>(ctx, "wpseo.tracking", null);

export async function saveConfigurationState(ctx: ExtensionsContext, finishedSteps: string[]): Promise<ConfigurationResult> {
  requireCapability(ctx, "wpseo_manage_options");
  const steps = finishedSteps.map((s) => s.replace(/<[^>]*>/g, "").replace(/[\r\n\t]+/g, " ").trim());
  await setOption(ctx, "wpseo.configuration_finished_steps", steps);
  if (finishedSteps.length === 3) await setOption(ctx, "wpseo.first_time_install", false);
  return { success: true, status: 200 };
}

export async function getConfigurationState(ctx: ExtensionsContext): Promise<ConfigurationResult> {
  requireCapability(ctx, "wpseo_manage_options");
  return { success: true, status: 200, data: await getOption<string[]>(ctx, "wpseo.configuration_finished_steps", []) };
}

export const firstTimeInstall = (ctx: ExtensionsContext) => getOption<boolean>(ctx, "wpseo.first_time_install", true);
