// Submission exports (forms-submissions/export, download-all, delete-download-file): CSV text per
// form, or a CSV file written under the export directory (FORMS_EXPORT_DIR) the caller fetches and
// then deletes. Date ranges go through chrono-node, which reads what PHP's strtotime reads in
// Ninja Forms ("2024-01-05", "yesterday", "last monday", "3 days ago"), loaded on the first export
// (its locale tables are ~10 MB resident that a process serving no export need not hold).
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { FormSubmission, Prisma } from "../../../generated/prisma/client.ts";
import type { ExtensionsContext } from "../context.ts";
import { forbidden, pluginError } from "./errors.ts";
import { formsLoaders } from "./loaders.ts";
import { requireManageForms } from "./permissions.ts";
import { submissionsCsv } from "./submissions.ts";

/** A date as a date-string parser reads it; a date without a time ends the range at the end of that day. */
export async function parseRangeDate(text: string, edge: "start" | "end", now: Date = new Date()): Promise<Date> {
  const chrono = await import("chrono-node");
  const [result] = chrono.parse(text.trim(), now);
  if (!result || result.index !== 0 || result.text.length !== text.trim().length) {
    // Also a plain unix timestamp, as the plugin's UI sends.
    if (/^\d{1,12}$/.test(text.trim())) return new Date(Number(text.trim()) * 1000);
    return pluginError("rest_invalid_date", { message: `"${text}" is not a date.` });
  }
  const date = result.start.date();
  if (edge === "end" && !result.start.isCertain("hour")) {
    const end = new Date(date);
    end.setHours(23, 59, 59, 999);
    return end;
  }
  return date;
}

export interface ExportSelection {
  formIds?: readonly number[] | null; startDate?: string | null; endDate?: string | null; submissionId?: number | null; submissionIds?: readonly number[] | null;
}

/**
 * Ninja Forms' three selections, in its order: forms with both range ends (listed submissions in
 * the range, one CSV per form); else one submission; else ids of the first form's submissions.
 * Anything else selects nothing (malformed_request).
 */
async function rowsByForm(ctx: ExtensionsContext, selection: ExportSelection): Promise<Map<number, FormSubmission[]>> {
  const byForm = new Map<number, FormSubmission[]>();
  const add = (rows: FormSubmission[]) => rows.forEach((r) => byForm.set(r.formId, [...(byForm.get(r.formId) ?? []), r]));
  const order = [{ createdAt: "asc" as const }, { id: "asc" as const }];
  const formIds = selection.formIds ?? [];
  if (formIds.length && selection.startDate && selection.endDate) {
    const now = new Date();
    const start = await parseRangeDate(selection.startDate, "start", now);
    const end = await parseRangeDate(selection.endDate, "end", now);
    const where: Prisma.FormSubmissionWhereInput = { formId: { in: [...formIds] }, status: "active", createdAt: { gte: start, lte: end } };
    for (const formId of formIds) byForm.set(formId, []);
    add(await ctx.prisma.formSubmission.findMany({ where, orderBy: order }));
    // Only forms that exist are exported.
    const forms = await Promise.all([...byForm.keys()].map((id) => formsLoaders(ctx).formById.load(id)));
    for (const [i, id] of [...byForm.keys()].entries()) if (!forms[i]) byForm.delete(id);
  } else if (selection.submissionId !== undefined && selection.submissionId !== null) {
    add(await ctx.prisma.formSubmission.findMany({ where: { id: selection.submissionId } }));
  } else if (selection.submissionIds?.length && formIds.length) {
    const formId = formIds[0];
    if (await formsLoaders(ctx).formById.load(formId)) byForm.set(formId, []);
    add(await ctx.prisma.formSubmission.findMany({ where: { id: { in: [...selection.submissionIds] }, formId, createdAt: { lte: new Date() } }, orderBy: order }));
  }
  return byForm;
}

export async function exportSubmissions(ctx: ExtensionsContext, selection: ExportSelection) {
  requireManageForms(ctx);
  const byForm = await rowsByForm(ctx, selection);
  if (byForm.size === 0) pluginError("malformed_request");
  return Promise.all([...byForm].map(async ([formId, rows]) => ({ formId, csv: await submissionsCsv(ctx, formId, rows) })));
}

/** The export directory, created on first use (owner-only permissions). */
async function exportDir(ctx: ExtensionsContext): Promise<string> {
  const dir = ctx.config.formsPlugins.exportDir;
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  return fs.realpath(dir);
}

/** Where a file of the export directory is served, when the directory is under the uploads directory. */
async function downloadUrl(ctx: ExtensionsContext, file: string): Promise<string | null> {
  let uploads = path.join(ctx.config.dataDir, "uploads");
  try { uploads = await fs.realpath(uploads); } catch { /* no uploads directory: nothing is served */ }
  const relative = path.relative(uploads, file);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return null;
  return `${ctx.config.siteUrl}/wp-content/uploads/${relative.split(path.sep).map(encodeURIComponent).join("/")}`;
}

export async function downloadAll(ctx: ExtensionsContext, formIds: readonly number[]) {
  requireManageForms(ctx);
  const formId = formIds[0];
  if (formId === undefined || !(await formsLoaders(ctx).formById.load(formId))) pluginError("malformed_request");
  const rows = await ctx.prisma.formSubmission.findMany({ where: { formId, status: "active" }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  const csv = await submissionsCsv(ctx, formId, rows);
  const dir = await exportDir(ctx);
  // An unguessable name: the uploads directory is public.
  const file = path.join(dir, `form-${formId}-all-subs-${Date.now()}-${crypto.randomBytes(12).toString("hex")}.csv`);
  await fs.writeFile(file, csv, { flag: "wx", mode: 0o600 });
  return { formId, filePath: file, downloadUrl: await downloadUrl(ctx, file) };
}

/**
 * Deletes an export file. Like Ninja Forms' permission check, only a file directly inside the
 * export directory may go: `..` segments, other absolute paths, subdirectories and symbolic links
 * (even ones pointing back inside) are refused before anything is touched.
 */
export async function deleteDownloadFile(ctx: ExtensionsContext, filePath: string): Promise<boolean> {
  requireManageForms(ctx);
  const dir = await exportDir(ctx);
  const configured = path.resolve(ctx.config.formsPlugins.exportDir);
  if (filePath.includes("\0") || filePath.split(/[\\/]/).includes("..")) forbidden(ctx.identity);
  const name = path.basename(filePath);
  const parent = path.isAbsolute(filePath) ? path.dirname(filePath) : path.resolve(dir, path.dirname(filePath));
  if (!name || (parent !== dir && parent !== configured)) forbidden(ctx.identity);
  const target = path.join(dir, name);
  let stat;
  try { stat = await fs.lstat(target); } catch { return false; }
  if (!stat.isFile()) forbidden(ctx.identity);
  await fs.unlink(target);
  return true;
}
