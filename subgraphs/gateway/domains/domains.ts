// Domains the gateway relays for: the domain summary (MX, SPF, DKIM and DMARC records read through
// the injectable resolver, lib/dns.ts, and validated against the gateway's MTA hostname), and
// one-time trials for a managed service provider's tenants (expiry notices: events/).
import type { GatewayDomain, Prisma } from "../../../generated/prisma/client.ts";
import { dnsResolver } from "../../../lib/dns.ts";
import { fail } from "../../../lib/errors.ts";
import { TRIAL_DAYS } from "../../../lib/gateway/appliance.ts";
import { pageWindow, violationError, type Violation } from "../../../lib/gateway/collection-rules.ts";
import { buildCollectionQuery, type ColumnSpec, type FilterInput, type OrderInput } from "../collection-query.ts";
import type { GatewayContext } from "../context.ts";
import { applianceSettings, HOSTNAME_PATTERN } from "../appliance/appliance-settings.ts";
import { recordAudit } from "../appliance/settings.ts";

type Ctx = Pick<GatewayContext, "db" | "identity">;
const DAY_MS = 86_400_000;
const SELECTOR = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const TENANT = /^[A-Za-z0-9._-]{1,100}$/;

export interface DnsCheck { records: string[]; valid: boolean; problems: string[] }
export interface DomainSummary { domain: string; mtaHostname: string; valid: boolean; mx: DnsCheck; spf: DnsCheck; dkim: DnsCheck; dmarc: DnsCheck }

const check = (records: string[], problems: string[]): DnsCheck => ({ records, valid: problems.length === 0, problems });
const host = (name: string) => name.toLowerCase().replace(/\.$/, "");
const tags = (record: string): Map<string, string> =>
  new Map(record.split(";").map((t) => t.trim()).filter(Boolean).map((t) => {
    const i = t.indexOf("=");
    return i < 0 ? [t.toLowerCase(), ""] : [t.slice(0, i).trim().toLowerCase(), t.slice(i + 1).trim()];
  }));

/** Validates a domain's mail DNS records against the gateway that must receive and send its mail. */
export async function domainSummary(ctx: Pick<GatewayContext, "db">, name: string, selector: string): Promise<DomainSummary> {
  const resolver = dnsResolver();
  const { mtaHostname } = await applianceSettings(ctx);
  const mta = host(mtaHostname);
  const [mxRecords, txt, dkimTxt, dmarcTxt] = await Promise.all([
    resolver.resolveMx(name), resolver.resolveTxt(name),
    resolver.resolveTxt(`${selector}._domainkey.${name}`), resolver.resolveTxt(`_dmarc.${name}`),
  ]);

  // MX: mail must reach the gateway first (its MTA hostname is the most preferred exchange).
  const mx = [...mxRecords].sort((a, b) => a.priority - b.priority || a.exchange.localeCompare(b.exchange));
  const mxProblems: string[] = [];
  if (!mx.length) mxProblems.push("No MX record: mail for the domain cannot be delivered.");
  else if (host(mx[0].exchange) !== mta) mxProblems.push(`The most preferred MX (${host(mx[0].exchange)}) is not the gateway (${mta}).`);

  // SPF: exactly one v=spf1 record that authorises the gateway and does not allow everyone.
  const spfRecords = txt.map((parts) => parts.join("")).filter((r) => /^v=spf1(\s|$)/i.test(r));
  const spfProblems: string[] = [];
  if (!spfRecords.length) spfProblems.push("No SPF record.");
  else if (spfRecords.length > 1) spfProblems.push("More than one SPF record (a permanent error for receivers).");
  else {
    const terms = spfRecords[0].toLowerCase().split(/\s+/).slice(1);
    const mxAuthorises = !mxProblems.length && terms.some((t) => t === "mx" || t === "+mx");
    const names = terms.filter((t) => /^\+?(a|include|mx):/.test(t)).map((t) => host(t.slice(t.indexOf(":") + 1).split("/")[0]));
    if (!mxAuthorises && !names.includes(mta)) spfProblems.push(`SPF does not authorise the gateway (${mta}); add a:${mta} or mx.`);
    if (terms.includes("+all") || terms.includes("all")) spfProblems.push("SPF ends in +all: every host may send for the domain.");
    else if (!terms.some((t) => /^[-~?]all$/.test(t) || t.startsWith("redirect="))) spfProblems.push("SPF has no all mechanism (-all or ~all).");
  }

  // DKIM: a key at <selector>._domainkey, not revoked (empty p=).
  const dkimRecords = dkimTxt.map((parts) => parts.join(""));
  const dkimProblems: string[] = [];
  const dkim = dkimRecords.find((r) => tags(r).has("p"));
  if (!dkim) dkimProblems.push(`No DKIM key at ${selector}._domainkey.${name}.`);
  else {
    const t = tags(dkim);
    if (t.has("v") && t.get("v") !== "DKIM1") dkimProblems.push("The DKIM record's version is not DKIM1.");
    if (!t.get("p")) dkimProblems.push("The DKIM key is empty (revoked).");
  }

  // DMARC: exactly one v=DMARC1 record with a policy.
  const dmarcRecords = dmarcTxt.map((parts) => parts.join("")).filter((r) => /^v=DMARC1\s*(;|$)/i.test(r));
  const dmarcProblems: string[] = [];
  if (!dmarcRecords.length) dmarcProblems.push(`No DMARC record at _dmarc.${name}.`);
  else if (dmarcRecords.length > 1) dmarcProblems.push("More than one DMARC record (receivers ignore them all).");
  else {
    const policy = tags(dmarcRecords[0]).get("p");
    if (!policy || !["none", "quarantine", "reject"].includes(policy.toLowerCase())) dmarcProblems.push("The DMARC record has no valid policy (p=none, quarantine or reject).");
  }

  const result = {
    mx: check(mx.map((r) => `${r.priority} ${host(r.exchange)}`), mxProblems),
    spf: check(spfRecords, spfProblems),
    dkim: check(dkimRecords, dkimProblems),
    dmarc: check(dmarcRecords, dmarcProblems),
  };
  return { domain: name, mtaHostname: mta, valid: Object.values(result).every((c) => c.valid), ...result };
}

export type DomainField = "id" | "name" | "tenant" | "trialEndsAt";
const COLUMNS: Record<DomainField, ColumnSpec<GatewayDomain>> = {
  id: { column: "id", type: "integer" },
  name: { column: "name", type: "string" },
  tenant: { column: "tenant", type: "string" },
  trialEndsAt: { column: "trialEndsAt", type: "datetime" },
};

export interface DomainQuery {
  filter?: Partial<Record<DomainField, readonly FilterInput[] | null>> | null;
  order?: readonly OrderInput<DomainField>[] | null;
  page: number;
  itemsPerPage: number;
}

export async function listDomains(ctx: Pick<GatewayContext, "db">, query: DomainQuery) {
  const window = pageWindow(query.page, query.itemsPerPage);
  const built = buildCollectionQuery(COLUMNS, query.filter, query.order);
  const where = { AND: built.where } as Prisma.GatewayDomainWhereInput;
  const [items, totalItems] = await Promise.all([
    ctx.db.prisma.gatewayDomain.findMany({ where, orderBy: built.orderBy as Prisma.GatewayDomainOrderByWithRelationInput[], skip: window.skip, take: window.take }),
    ctx.db.prisma.gatewayDomain.count({ where }),
  ]);
  return { items, totalItems, page: window.page, itemsPerPage: window.itemsPerPage };
}

export async function domainById(ctx: Pick<GatewayContext, "db">, id: number): Promise<GatewayDomain | null> {
  return ctx.db.prisma.gatewayDomain.findUnique({ where: { id } });
}

export async function createDomain(ctx: Ctx, input: { name: string; tenant?: string | null; dkimSelector?: string | null }): Promise<GatewayDomain> {
  const name = host(input.name.trim());
  const violations: Violation[] = [];
  if (!HOSTNAME_PATTERN.test(name) || !name.includes(".")) violations.push({ propertyPath: "name", message: "This value is not a valid domain name." });
  if (input.tenant != null && !TENANT.test(input.tenant)) violations.push({ propertyPath: "tenant", message: "The tenant must have 1 to 100 letters, digits or . _ -." });
  if (input.dkimSelector != null && !SELECTOR.test(input.dkimSelector)) violations.push({ propertyPath: "dkimSelector", message: "This value is not a valid DKIM selector." });
  if (!violations.length && await ctx.db.prisma.gatewayDomain.findUnique({ where: { name } })) violations.push({ propertyPath: "name", message: "This domain already exists." });
  if (violations.length) throw violationError(violations);
  const domain = await ctx.db.prisma.gatewayDomain.create({ data: { name, tenant: input.tenant ?? null, dkimSelector: input.dkimSelector ?? "default" } });
  await recordAudit(ctx, { action: "change", section: "domains", changeset: [{ property: name, old: null, new: { tenant: domain.tenant, dkimSelector: domain.dkimSelector } }] });
  return domain;
}

export async function deleteDomain(ctx: Ctx, id: number): Promise<boolean> {
  const domain = await ctx.db.prisma.gatewayDomain.findUnique({ where: { id } });
  if (!domain) return false;
  await ctx.db.prisma.gatewayDomain.delete({ where: { id } });
  await recordAudit(ctx, { action: "change", section: "domains", changeset: [{ property: domain.name, old: { tenant: domain.tenant, dkimSelector: domain.dkimSelector }, new: null }] });
  return true;
}

/** Starts a domain's one-time trial: managed-service-provider tenants only, never twice. */
export async function startTrial(ctx: Ctx, id: number, now = new Date()): Promise<GatewayDomain> {
  const domain = await ctx.db.prisma.gatewayDomain.findUnique({ where: { id } });
  if (!domain) return fail("gateway_not_found");
  if (!domain.tenant) return fail("gateway_conflict", { message: "Domain trials are for managed service provider tenants only." });
  const trialEndsAt = new Date(now.getTime() + TRIAL_DAYS * DAY_MS);
  // One-time: only a domain that never had a trial gets one (checked and set in one statement).
  const { count } = await ctx.db.prisma.gatewayDomain.updateMany({ where: { id, trialStartedAt: null }, data: { trialStartedAt: now, trialEndsAt } });
  if (!count) return fail("gateway_conflict", { message: "This domain already had its one-time trial." });
  await recordAudit(ctx, { action: "change", section: "domains", changeset: [{ property: `${domain.name}:trial`, old: null, new: trialEndsAt.toISOString() }] });
  return (await ctx.db.prisma.gatewayDomain.findUnique({ where: { id } }))!;
}
