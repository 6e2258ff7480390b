// Apply settings (release 5.3.0, breaking change 1) and auditing: one mechanism for every
// configuration section (integration connectors, the OTP policy, appliance and cluster settings).
// A change is stored as pending; it takes effect only when POST /appliance/apply-settings moves
// every pending section to applied. Each change that changes something writes one audit entry
// with its property changeset and the unique id of the node that executed it; a change that
// changes nothing writes nothing and leaves nothing pending.
import { Prisma } from "../../../generated/prisma/client.ts";
import type { GatewayContext } from "../context.ts";
import { localNode } from "./node.ts";

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type SectionValue = Record<string, JsonValue>;

/** A configuration section: its name (the audit log's `section`) and the values in force before anything is set. */
export interface ConfigSection<T extends SectionValue> {
  name: string;
  defaults: T;
  /** Write-only properties: the audit log records that they changed, never their values. */
  secrets?: readonly string[];
}

export const SECRET_MASK = "******";

export type SettingsContext = Pick<GatewayContext, "db" | "identity">;

export interface SectionState<T extends SectionValue> {
  /** The configuration as last saved: what the administrator sees and edits. */
  saved: T;
  /** The configuration in force (applied). */
  applied: T;
  /** Whether saved changes await apply-settings. */
  pending: boolean;
  appliedAt: Date | null;
  updatedAt: Date | null;
}

export interface PropertyChange { property: string; old: JsonValue; new: JsonValue }

const canonical = (value: JsonValue | undefined): string => JSON.stringify(value ?? null, (_k, v: unknown) =>
  v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v);

/** The properties whose values differ, in the section's property order. */
export function changeset(before: SectionValue, after: SectionValue): PropertyChange[] {
  const properties = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return properties
    .filter((p) => canonical(before[p]) !== canonical(after[p]))
    .map((p) => ({ property: p, old: before[p] ?? null, new: after[p] ?? null }));
}

const withDefaults = <T extends SectionValue>(section: ConfigSection<T>, stored: unknown): T =>
  ({ ...section.defaults, ...(stored && typeof stored === "object" ? stored as Partial<T> : {}) });

export async function readSection<T extends SectionValue>(ctx: Pick<GatewayContext, "db">, section: ConfigSection<T>): Promise<SectionState<T>> {
  const row = await ctx.db.prisma.gatewayConfiguration.findUnique({ where: { section: section.name } });
  const applied = withDefaults(section, row?.applied);
  const pending = row?.pending != null;
  return { applied, saved: pending ? withDefaults(section, row?.pending) : applied, pending, appliedAt: row?.appliedAt ?? null, updatedAt: row?.updatedAt ?? null };
}

/** The configuration in force for a section (what the rest of the system obeys). */
export async function appliedSection<T extends SectionValue>(ctx: Pick<GatewayContext, "db">, section: ConfigSection<T>): Promise<T> {
  return (await readSection(ctx, section)).applied;
}

type Tx = Prisma.TransactionClient;

/** Writes an audit entry inside `tx`; the node is looked up before the transaction (PGlite has one connection). */
async function audit(tx: Tx, ctx: SettingsContext, nodeUid: string, entry: { action: string; section: string; changeset: PropertyChange[] }): Promise<void> {
  const user = ctx.identity.gateway;
  await tx.gatewayAuditEntry.create({
    data: {
      action: entry.action, section: entry.section, userId: user?.userId ?? null, username: user?.username ?? "system",
      nodeUid, changeset: entry.changeset as unknown as Prisma.InputJsonValue,
    },
  });
}

/** Records an audited action that is not a configuration section (cluster operations…). */
export async function recordAudit(ctx: SettingsContext, entry: { action: string; section: string; changeset: PropertyChange[] }): Promise<void> {
  const node = await localNode(ctx);
  await ctx.db.prisma.$transaction((tx) => audit(tx, ctx, node.uid, entry));
}

/**
 * Saves a section's new configuration as pending. Returns the state after the change and the
 * changeset (empty: nothing changed, nothing logged, nothing pending added).
 */
export async function stageChange<T extends SectionValue>(ctx: SettingsContext, section: ConfigSection<T>, next: T): Promise<{ state: SectionState<T>; changes: PropertyChange[] }> {
  const node = await localNode(ctx);
  const changes = await ctx.db.prisma.$transaction(async (tx) => {
    // Changes to one section are serialised, so two saves never both compute against the old value.
    await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(5301, ${hashKey(section.name)})`);
    const row = await tx.gatewayConfiguration.findUnique({ where: { section: section.name } });
    const applied = withDefaults(section, row?.applied);
    const saved = row?.pending != null ? withDefaults(section, row.pending) : applied;
    const changes = changeset(saved, next).map((c) => section.secrets?.includes(c.property)
      ? { property: c.property, old: c.old ? SECRET_MASK : null, new: c.new ? SECRET_MASK : null }
      : c);
    if (!changes.length) return changes;
    // Saving the configuration in force again leaves nothing to apply.
    const pending = changeset(applied, next).length ? next as unknown as Prisma.InputJsonValue : null;
    await tx.gatewayConfiguration.upsert({
      where: { section: section.name },
      create: { section: section.name, pending: pending ?? Prisma.DbNull },
      update: { pending: pending ?? Prisma.DbNull },
    });
    await audit(tx, ctx, node.uid, { action: "change", section: section.name, changeset: changes });
    return changes;
  });
  return { state: await readSection(ctx, section), changes };
}

function hashKey(name: string): number {
  let h = 0;
  for (const c of name) h = (h * 31 + c.charCodeAt(0)) | 0;
  return h;
}

export interface ApplyResult {
  /** applied: pending changes took effect; up-to-date: nothing was pending. */
  status: "applied" | "up-to-date";
  sections: string[];
  appliedAt: Date | null;
}

/** POST /appliance/apply-settings: every pending section takes effect at once (one transaction, one audit entry). */
export async function applySettings(ctx: SettingsContext, now = new Date()): Promise<ApplyResult> {
  const node = await localNode(ctx);
  return ctx.db.prisma.$transaction(async (tx) => {
    await tx.$executeRawUnsafe("SELECT pg_advisory_xact_lock(5302)");
    const pending = await tx.gatewayConfiguration.findMany({ where: { pending: { not: Prisma.DbNull } }, orderBy: { section: "asc" } });
    if (!pending.length) {
      const last = await tx.gatewayConfiguration.aggregate({ _max: { appliedAt: true } });
      return { status: "up-to-date", sections: [], appliedAt: last._max.appliedAt ?? null };
    }
    for (const row of pending) {
      await tx.$executeRawUnsafe(
        `UPDATE "GatewayConfiguration" SET "applied" = "pending", "pending" = NULL, "appliedAt" = $2, "updatedAt" = $2 WHERE "section" = $1`,
        row.section, now);
    }
    const sections = pending.map((r) => r.section);
    await audit(tx, ctx, node.uid, { action: "apply", section: "appliance", changeset: [{ property: "appliedSections", old: null, new: sections }] });
    return { status: "applied", sections, appliedAt: now };
  });
}

export interface ApplianceStatus {
  pendingSections: string[];
  lastAppliedAt: Date | null;
}

export async function applianceStatus(ctx: Pick<GatewayContext, "db">): Promise<ApplianceStatus> {
  const rows = await ctx.db.prisma.gatewayConfiguration.findMany({ orderBy: { section: "asc" } });
  const lastAppliedAt = rows.reduce<Date | null>((max, r) => (r.appliedAt && (!max || r.appliedAt > max) ? r.appliedAt : max), null);
  return { pendingSections: rows.filter((r) => r.pending !== null).map((r) => r.section), lastAppliedAt };
}
