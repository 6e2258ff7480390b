// Redirect groups (Red_Group): list, create, update and the bulk actions. Enabling or disabling
// a group sets every rule in it; deleting a group deletes its rules.
import type { Prisma, RedirectionGroup } from "../../../generated/prisma/client.ts";
import { fail } from "../../../lib/errors.ts";
import type { ExtensionsContext } from "../context.ts";
export { GROUP_FILTERS, GROUP_ORDERBY } from "./values.ts";
import { requireRedirection } from "./permissions.ts";
import { itemIds, paging, type ListInput } from "./redirects.ts";
import { bumpRulesVersion, readOptions } from "./settings.ts";

export const MODULE_NAMES: Record<number, string> = { 1: "WordPress", 2: "Apache", 3: "Nginx" };

export interface GroupView { id: number; name: string; redirects: number; moduleId: number; moduleName: string; enabled: boolean; default: boolean }

export interface GroupInput { name: string; moduleId: number; status?: string | null }

export function groupView(group: RedirectionGroup, redirects: number, lastGroupId: number): GroupView {
  return {
    id: group.id, name: group.name, redirects, moduleId: group.moduleId, moduleName: MODULE_NAMES[group.moduleId] ?? "",
    enabled: group.status === "enabled", default: group.id === lastGroupId,
  };
}

/** Rule counts of these groups, in one statement. */
export async function ruleCounts(ctx: ExtensionsContext, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const counts = await ctx.prisma.redirectionItem.groupBy({ by: ["groupId"], where: { groupId: { in: ids } }, _count: { _all: true } });
  return new Map(counts.map((c) => [c.groupId, c._count._all]));
}

export async function groupViews(ctx: ExtensionsContext, groups: RedirectionGroup[]): Promise<GroupView[]> {
  const [{ options }, counts] = await Promise.all([readOptions(ctx), ruleCounts(ctx, groups.map((g) => g.id))]);
  return groups.map((g) => groupView(g, counts.get(g.id) ?? 0, Number(options.last_group_id)));
}

function groupWhere(filterBy: Record<string, unknown> | null | undefined): Prisma.RedirectionGroupWhereInput {
  const filter = filterBy ?? {};
  const and: Prisma.RedirectionGroupWhereInput[] = [];
  if (filter.status !== undefined && filter.status !== null) and.push({ status: String(filter.status) === "enabled" ? "enabled" : "disabled" });
  if (filter.module !== undefined && filter.module !== null) {
    const n = Number(filter.module);
    and.push({ moduleId: Number.isInteger(n) && Math.abs(n) < 2 ** 31 ? n : -1 });
  }
  if (filter.name !== undefined && filter.name !== null) and.push({ name: { contains: String(filter.name) } });
  return and.length ? { AND: and } : {};
}

export interface GroupPage { items: GroupView[]; total: number }

export async function listGroups(ctx: ExtensionsContext, list: ListInput | null | undefined): Promise<GroupPage> {
  requireRedirection(ctx);
  await readOptions(ctx); // the first use installs the default groups
  const where = groupWhere(list?.filterBy);
  const { take, skip, direction } = paging(list);
  const orderBy: Prisma.RedirectionGroupOrderByWithRelationInput[] = list?.orderby === "id" ? [{ id: direction }] : [{ name: direction }, { id: direction }];
  const [rows, total] = await Promise.all([
    ctx.prisma.redirectionGroup.findMany({ where, orderBy, take, skip }),
    ctx.prisma.redirectionGroup.count({ where }),
  ]);
  return { items: await groupViews(ctx, rows), total };
}

/** Name tag-stripped and cut to 50 characters; module 1..3; else redirect_group_invalid. */
function sanitizeGroup(input: GroupInput): { name: string; moduleId: number } {
  const name = String(input.name ?? "").replace(/<[^>]*>?/g, "").trim().slice(0, 50);
  const moduleId = Math.trunc(Number(input.moduleId));
  if (name === "" || !MODULE_NAMES[moduleId]) fail("redirect_group_invalid", { data: { error_code: 110 } });
  return { name, moduleId };
}

/** Red_Group::create: position = the module's group count. */
export async function insertGroup(ctx: ExtensionsContext, name: string, moduleId: number, enabled = true): Promise<RedirectionGroup> {
  const position = await ctx.prisma.redirectionGroup.count({ where: { moduleId } });
  return ctx.prisma.redirectionGroup.create({ data: { name, moduleId, status: enabled ? "enabled" : "disabled", position } });
}

export async function createGroup(ctx: ExtensionsContext, input: GroupInput, list: ListInput | null | undefined): Promise<GroupPage> {
  requireRedirection(ctx, "add");
  const { name, moduleId } = sanitizeGroup(input);
  await insertGroup(ctx, name, moduleId, input.status !== "disabled");
  await bumpRulesVersion(ctx);
  return listGroups(ctx, list);
}

export async function updateGroup(ctx: ExtensionsContext, id: number, input: GroupInput): Promise<GroupView> {
  requireRedirection(ctx, "add");
  const existing = Number.isSafeInteger(id) && Math.abs(id) < 2 ** 31 ? await ctx.prisma.redirectionGroup.findUnique({ where: { id } }) : null;
  if (!existing) fail("redirect_group_invalid", { message: "Invalid group details", data: { error_code: 136 } });
  // Red_Group::update never refuses: the name is saved as sanitized (even empty), an invalid module is ignored.
  const name = String(input.name ?? "").replace(/<[^>]*>?/g, "").trim().slice(0, 50);
  const moduleId = Math.trunc(Number(input.moduleId));
  const row = await ctx.prisma.redirectionGroup.update({ where: { id }, data: { name, ...(MODULE_NAMES[moduleId] ? { moduleId } : {}) } });
  await bumpRulesVersion(ctx);
  return (await groupViews(ctx, [row]))[0];
}

export type BulkGroupAction = "delete" | "enable" | "disable";

export async function bulkGroups(
  ctx: ExtensionsContext, action: BulkGroupAction, items: readonly string[] | null | undefined, global: boolean | null | undefined, list: ListInput | null | undefined,
): Promise<GroupPage> {
  requireRedirection(ctx, action === "delete" ? "delete" : "add");
  const ids = items
    ? itemIds(items)
    : global ? (await ctx.prisma.redirectionGroup.findMany({ where: groupWhere(list?.filterBy), select: { id: true } })).map((g) => g.id) : [];
  // Unknown ids are skipped; each group with its rules is one transaction.
  for (const id of ids) {
    if (action === "delete") {
      await ctx.prisma.$transaction([
        ctx.prisma.redirectionItem.deleteMany({ where: { groupId: id } }),
        ctx.prisma.redirectionGroup.deleteMany({ where: { id } }),
      ]);
    } else {
      const status = action === "enable" ? "enabled" : "disabled";
      await ctx.prisma.$transaction([
        ctx.prisma.redirectionGroup.updateMany({ where: { id }, data: { status } }),
        ctx.prisma.redirectionItem.updateMany({ where: { groupId: id }, data: { status } }),
      ]);
    }
  }
  await bumpRulesVersion(ctx);
  return listGroups(ctx, list);
}
