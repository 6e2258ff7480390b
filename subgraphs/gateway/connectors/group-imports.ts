// Group import sets of the integration connectors (5.3 release notes): external groups brought in
// as users. New sets default both options to yes: "add group email to users" (the group's address
// becomes an alias of each member user) and "create functional user for groups" (the group is a
// functional user, which never counts as a licence). A run takes the group as the directory
// answers it (its address and members' addresses) and needs the connector enabled (applied).
import { fail } from "../../../lib/errors.ts";
import { CONNECTORS, type Connector } from "../../../lib/gateway/appliance.ts";
import { violationError, type Violation } from "../../../lib/gateway/collection-rules.ts";
import { MAX_ADDRESS_LENGTH } from "../../../lib/gateway/licensing.ts";
import type { GatewayContext } from "../context.ts";
import { EMAIL_PATTERN } from "../appliance/appliance.ts";
import { recordAudit } from "../appliance/settings.ts";
import { appliedConnectorConfig } from "./connectors.ts";

type Ctx = Pick<GatewayContext, "db" | "identity">;

export interface GroupImportInput { connector?: string | null; groupName?: string | null; addGroupEmailToUsers?: boolean | null; createFunctionalUserForGroups?: boolean | null }

export const listGroupImports = (ctx: Pick<GatewayContext, "db">) => ctx.db.prisma.gatewayGroupImport.findMany({ orderBy: { id: "asc" } });

export async function createGroupImport(ctx: Ctx, input: GroupImportInput) {
  const violations: Violation[] = [];
  if (!input.connector || !(CONNECTORS as readonly string[]).includes(input.connector)) violations.push({ propertyPath: "connector", message: `The value you selected is not a valid choice; allowed: ${CONNECTORS.join(", ")}.` });
  const groupName = input.groupName?.trim() ?? "";
  if (!groupName || groupName.length > 255) violations.push({ propertyPath: "groupName", message: "The group name must have 1 to 255 characters." });
  if (!violations.length && await ctx.db.prisma.gatewayGroupImport.findUnique({ where: { connector_groupName: { connector: input.connector!, groupName } } })) {
    violations.push({ propertyPath: "groupName", message: "This group is already imported by this connector." });
  }
  if (violations.length) throw violationError(violations);
  const row = await ctx.db.prisma.gatewayGroupImport.create({
    data: {
      connector: input.connector!, groupName,
      // New sets: both options yes unless said otherwise (5.3).
      addGroupEmailToUsers: input.addGroupEmailToUsers ?? true,
      createFunctionalUserForGroups: input.createFunctionalUserForGroups ?? true,
    },
  });
  await recordAudit(ctx, { action: "change", section: `integration/${row.connector}/group-import`, changeset: [{ property: groupName, old: null, new: { addGroupEmailToUsers: row.addGroupEmailToUsers, createFunctionalUserForGroups: row.createFunctionalUserForGroups } }] });
  return row;
}

export async function deleteGroupImport(ctx: Ctx, id: number): Promise<boolean> {
  const row = await ctx.db.prisma.gatewayGroupImport.findUnique({ where: { id } });
  if (!row) return false;
  await ctx.db.prisma.gatewayGroupImport.delete({ where: { id } });
  await recordAudit(ctx, { action: "change", section: `integration/${row.connector}/group-import`, changeset: [{ property: row.groupName, old: { addGroupEmailToUsers: row.addGroupEmailToUsers, createFunctionalUserForGroups: row.createFunctionalUserForGroups }, new: null }] });
  return true;
}

export interface GroupImportRun { groupEmail: string; functionalUser: boolean; usersUpdated: number; membersUnknown: number }

/** Imports a group as the directory answers it; idempotent (running again changes nothing more). */
export async function runGroupImport(ctx: Ctx, id: number, group: { groupEmail: string; members: readonly string[] }, now = new Date()): Promise<GroupImportRun> {
  const set = await ctx.db.prisma.gatewayGroupImport.findUnique({ where: { id } });
  if (!set) return fail("gateway_not_found");
  const groupEmail = group.groupEmail.trim().toLowerCase();
  const members = [...new Set(group.members.map((m) => m.trim().toLowerCase()))];
  const violations: Violation[] = [];
  if (groupEmail.length > MAX_ADDRESS_LENGTH || !EMAIL_PATTERN.test(groupEmail)) violations.push({ propertyPath: "groupEmail", message: "This value is not a valid email address of at most 254 characters." });
  members.forEach((m, i) => { if (m.length > MAX_ADDRESS_LENGTH || !EMAIL_PATTERN.test(m)) violations.push({ propertyPath: `members[${i}]`, message: "This value is not a valid email address of at most 254 characters." }); });
  if (violations.length) throw violationError(violations);
  if ((await appliedConnectorConfig(ctx, set.connector as Connector)).enabled !== true) {
    return fail("gateway_conflict", { message: `The ${set.connector} connector is not enabled (apply its configuration first).` });
  }
  const { prisma } = ctx.db;
  if (set.createFunctionalUserForGroups) {
    await prisma.gatewayFunctionalUser.upsert({ where: { email: groupEmail }, create: { email: groupEmail, groupName: set.groupName, connector: set.connector }, update: {} });
    // A functional user never counts toward the licence.
    await prisma.accountedEmail.updateMany({ where: { address: groupEmail }, data: { type: "functional", accounted: false } });
  }
  let usersUpdated = 0;
  let membersUnknown = members.length;
  if (set.addGroupEmailToUsers && members.length) {
    const users = await prisma.gatewayUser.findMany({ where: { email: { in: members, mode: "insensitive" } }, select: { id: true } });
    membersUnknown = members.length - users.length;
    for (const user of users) {
      const profile = await prisma.gatewayUserProfile.findUnique({ where: { userId: user.id } });
      if (profile?.aliases.includes(groupEmail)) continue;
      await prisma.gatewayUserProfile.upsert({ where: { userId: user.id }, create: { userId: user.id, aliases: [groupEmail] }, update: { aliases: { push: groupEmail } } });
      usersUpdated++;
    }
  }
  await prisma.gatewayGroupImport.update({ where: { id }, data: { lastRunAt: now } });
  return { groupEmail, functionalUser: set.createFunctionalUserForGroups, usersUpdated, membersUnknown };
}

export const isFunctionalUser = async (ctx: Pick<GatewayContext, "db">, email: string): Promise<boolean> =>
  (await ctx.db.prisma.gatewayFunctionalUser.count({ where: { email: email.trim().toLowerCase() } })) > 0;
