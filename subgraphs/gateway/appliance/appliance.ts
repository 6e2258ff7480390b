// The appliance as the API shows it, and its settings section's validation.
import { violationError, type Violation } from "../../../lib/gateway/collection-rules.ts";
import { MAX_ADDRESS_LENGTH } from "../../../lib/gateway/licensing.ts";
import { CURRENT_VERSION } from "../../../lib/gateway/releases.ts";
import type { GatewayContext } from "../context.ts";
import { APPLIANCE_SECTION, HOSTNAME_PATTERN, type ApplianceSettings } from "./appliance-settings.ts";
import { localNode } from "./node.ts";
import { applianceStatus, readSection, stageChange, type SettingsContext } from "./settings.ts";

export async function applianceView(ctx: Pick<GatewayContext, "db">) {
  const [node, settings, status] = await Promise.all([localNode(ctx), readSection(ctx, APPLIANCE_SECTION), applianceStatus(ctx)]);
  const row = await ctx.db.prisma.gatewayClusterNode.findUnique({ where: { id: node.id } });
  return {
    nodeUid: node.uid, hostname: row?.hostname ?? node.hostname, cloud: row?.cloud ?? false, version: CURRENT_VERSION,
    ...settings.saved, applied: settings.applied,
    pendingChanges: status.pendingSections.length > 0, pendingSections: status.pendingSections, lastAppliedAt: status.lastAppliedAt,
  };
}

export const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function emailViolation(property: string, value: string): Violation | undefined {
  if (value.length > MAX_ADDRESS_LENGTH) return { propertyPath: property, message: `The address "${value.slice(0, 64)}…" is longer than ${MAX_ADDRESS_LENGTH} characters.` };
  return EMAIL_PATTERN.test(value) ? undefined : { propertyPath: property, message: "This value is not a valid email address." };
}

export async function updateApplianceSettings(ctx: SettingsContext, input: Partial<Record<keyof ApplianceSettings, string | null>>) {
  const violations: Violation[] = [];
  const { saved } = await readSection(ctx, APPLIANCE_SECTION);
  const next = { ...saved };
  if (input.mtaHostname != null) {
    const host = input.mtaHostname.trim().toLowerCase().replace(/\.$/, "");
    if (!HOSTNAME_PATTERN.test(host)) violations.push({ propertyPath: "mtaHostname", message: "This value is not a valid hostname." });
    next.mtaHostname = host;
  }
  for (const key of ["adminEmail", "quarantineSender"] as const) {
    const value = input[key];
    if (value == null) continue;
    const violation = emailViolation(key, value.trim());
    if (violation) violations.push(violation);
    next[key] = value.trim();
  }
  if (violations.length) throw violationError(violations);
  await stageChange(ctx, APPLIANCE_SECTION, next);
  return applianceView(ctx);
}
