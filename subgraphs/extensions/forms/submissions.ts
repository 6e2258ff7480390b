// The admin submissions UI (Ninja Forms' ninja-forms-submissions routes): pages of a form's
// submissions with its columns, the bin (trash / restore), edits, submission handlers, the email
// action re-run and the submissions settings option.
import { stringify } from "csv-stringify/sync";
import type { FormSubmission, Prisma } from "../../../generated/prisma/client.ts";
import type { ExtensionsContext } from "../context.ts";
import { pluginError } from "./errors.ts";
import {
  emailOf, fieldsOf, FIELD_TYPES_WITHOUT_VALUES, jsonObject, submissionView, valuesByField, valuesOf, valueText,
} from "./forms.ts";
import { clearFormsLoaders, formsLoaders } from "./loaders.ts";
import { readOption, writeOption } from "./options.ts";
import { requireManageForms } from "./permissions.ts";

export const SUBMISSIONS_SETTINGS_OPTION = "ninja_forms_submissions_settings";

type Status = "ACTIVE" | "TRASH";
const dbStatus = (s: Status | null | undefined) => (s === "TRASH" ? "trash" : "active");

function instant(value: string | null | undefined, name: string): Date | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) pluginError("rest_invalid_date", { message: `Invalid date in ${name}.` });
  return date;
}

export interface SubmissionFilter {
  formId: number; after?: string | null; before?: string | null; search?: string | null; status?: Status | null; pageSize?: number | null; page?: number | null;
}

export async function submissionsPage(ctx: ExtensionsContext, filter: SubmissionFilter) {
  requireManageForms(ctx);
  const pageSize = filter.pageSize ?? 10;
  const page = filter.page ?? 1;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) pluginError("invalid_value", { message: "pageSize must be between 1 and 1000." });
  if (!Number.isInteger(page) || page < 1) pluginError("invalid_value", { message: "page must be at least 1." });
  const form = await formsLoaders(ctx).formById.load(filter.formId);
  if (!form) pluginError("form_not_found");
  const fields = await fieldsOf(ctx, filter.formId);
  const after = instant(filter.after, "after");
  const before = instant(filter.before, "before");
  const where: Prisma.FormSubmissionWhereInput = {
    formId: filter.formId, status: dbStatus(filter.status),
    ...(after || before ? { createdAt: { ...(after ? { gte: after } : {}), ...(before ? { lt: before } : {}) } } : {}),
  };
  const order = [{ createdAt: "desc" as const }, { id: "desc" as const }];
  const term = filter.search?.trim();
  if (term) {
    // The term is looked for in the values as shown (lists joined with ", "), in the database:
    // the ids of matching submissions, then the page as without a term.
    const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const matching = await ctx.prisma.$queryRaw<{ id: number }[]>`
      SELECT s.id FROM "FormSubmission" s
      WHERE s."formId" = ${filter.formId} AND EXISTS (
        SELECT 1 FROM jsonb_each(s."values") v
        WHERE (CASE jsonb_typeof(v.value) WHEN 'array' THEN (SELECT string_agg(e, ', ') FROM jsonb_array_elements_text(v.value) e) ELSE v.value #>> '{}' END) ILIKE ${pattern})`;
    where.id = { in: matching.map((m) => m.id) };
  }
  const [rows, totalCount] = await Promise.all([
    ctx.prisma.formSubmission.findMany({ where, orderBy: order, skip: (page - 1) * pageSize, take: pageSize }),
    ctx.prisma.formSubmission.count({ where }),
  ]);
  return {
    columns: fields.filter((f) => !FIELD_TYPES_WITHOUT_VALUES.has(f.type)),
    nodes: await Promise.all(rows.map((r) => submissionView(ctx, r))),
    totalCount,
  };
}

async function setStatus(ctx: ExtensionsContext, ids: readonly number[], status: "active" | "trash"): Promise<number[]> {
  requireManageForms(ctx);
  const unique = [...new Set(ids)];
  const found = await ctx.prisma.formSubmission.findMany({ where: { id: { in: unique } }, select: { id: true } });
  await ctx.prisma.formSubmission.updateMany({ where: { id: { in: found.map((f) => f.id) } }, data: { status } });
  clearFormsLoaders(ctx);
  return found.map((f) => f.id).sort((a, b) => a - b);
}

export const trashSubmissions = (ctx: ExtensionsContext, ids: readonly number[]) => setStatus(ctx, ids, "trash");
export const restoreSubmissions = (ctx: ExtensionsContext, ids: readonly number[], restore: boolean) => setStatus(ctx, ids, restore ? "active" : "trash");

async function submissionRow(ctx: ExtensionsContext, id: number): Promise<FormSubmission> {
  const row = await ctx.prisma.formSubmission.findUnique({ where: { id } });
  return row ?? pluginError("submission_not_found");
}

export async function updateSubmission(ctx: ExtensionsContext, input: { id: number; values?: readonly { key: string; value: string }[] | null; extra?: string | null; status?: Status | null }) {
  requireManageForms(ctx);
  const row = await submissionRow(ctx, input.id);
  const fields = await fieldsOf(ctx, row.formId);
  const values = { ...valuesOf(row), ...(input.values ? valuesByField(fields, input.values) : {}) };
  const updated = await ctx.prisma.formSubmission.update({
    where: { id: row.id },
    data: {
      values, email: emailOf(fields, values),
      ...(input.extra !== undefined && input.extra !== null ? { extra: jsonObject(input.extra, "extraValues") } : {}),
      ...(input.status ? { status: dbStatus(input.status) } : {}),
    },
  });
  clearFormsLoaders(ctx);
  return submissionView(ctx, updated);
}

/** One CSV of a form's submissions: a header of field labels (with the sequence number and date), one row each. */
export async function submissionsCsv(ctx: ExtensionsContext, formId: number, rows: readonly FormSubmission[]): Promise<string> {
  const fields = (await fieldsOf(ctx, formId)).filter((f) => !FIELD_TYPES_WITHOUT_VALUES.has(f.type));
  const header = ["#", "Date Submitted", ...fields.map((f) => f.label)];
  const body = rows.map((r) => {
    const values = valuesOf(r);
    return [String(r.seqNum), r.createdAt.toISOString(), ...fields.map((f) => neutraliseFormula(valueText(values[String(f.id)])))];
  });
  return stringify([header, ...body]);
}

/** A cell starting like a spreadsheet formula is prefixed with ', so opening the export runs nothing (CSV injection). */
const neutraliseFormula = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

/**
 * The submission handlers a caller may name (Ninja Forms instantiates only classes implementing its
 * SubmissionHandler contract): `csv` (the submission as a CSV download) and `json`.
 */
const HANDLERS: Record<string, (ctx: ExtensionsContext, row: FormSubmission) => Promise<{ responseType: string; download: boolean; blobType: string; result: string; filename: string }>> = {
  csv: async (ctx, row) => ({
    responseType: "download", download: true, blobType: "text/csv", result: await submissionsCsv(ctx, row.formId, [row]), filename: `submission-${row.formId}-${row.seqNum}.csv`,
  }),
  json: async (ctx, row) => ({
    responseType: "download", download: true, blobType: "application/json", result: JSON.stringify(await submissionView(ctx, row)), filename: `submission-${row.formId}-${row.seqNum}.json`,
  }),
};

export async function handleExtra(ctx: ExtensionsContext, id: number, handler: string) {
  requireManageForms(ctx);
  const run = Object.hasOwn(HANDLERS, handler) ? HANDLERS[handler] : undefined;
  if (!run) pluginError("handler_not_recognized");
  return run(ctx, await submissionRow(ctx, id));
}

export async function readSubmissionSettings(ctx: ExtensionsContext): Promise<string> {
  requireManageForms(ctx);
  // json_encode(get_option(…)): "false" while the option was never saved.
  return JSON.stringify((await readOption<unknown>(ctx.prisma, SUBMISSIONS_SETTINGS_OPTION)) ?? false);
}

export async function setSubmissionSetting(ctx: ExtensionsContext, settingName: string, data: string, formId: string) {
  requireManageForms(ctx);
  if (!settingName.trim()) pluginError("malformed_request");
  let value: unknown;
  try { value = JSON.parse(data); } catch { pluginError("invalid_value", { status: 400, message: "data must be JSON." }); }
  const current = await readOption<Record<string, Record<string, unknown>>>(ctx.prisma, SUBMISSIONS_SETTINGS_OPTION);
  const option = current && typeof current === "object" && !Array.isArray(current) ? current : {};
  const previous = option[formId]?.[settingName];
  if (current !== undefined && JSON.stringify(previous) === JSON.stringify(value)) return { message: "unchanged", status: false };
  await writeOption(ctx.prisma, SUBMISSIONS_SETTINGS_OPTION, { ...option, [formId]: { ...(option[formId] ?? {}), [settingName]: value } });
  return { message: current === undefined ? "add_option" : "update_option", status: true };
}

const ADDRESS = /^[^\s@<>,]+@[^\s@<>,]+\.[^\s@<>,]+$/;

/** Replaces {field:key}, {all_fields_table}, {form:title}, {submission:sequence} and {submission:id}. */
function mergeTags(text: string, tags: Record<string, string>): string {
  return text.replace(/\{([a-z_]+(?::[a-z0-9_-]+)?)\}/gi, (whole, tag: string) => tags[tag.toLowerCase()] ?? whole);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#039;" })[c]!);

/** Re-runs the form's email action (its settings, overridden by `actionSettings`) over a stored submission. */
export async function sendSubmissionEmail(ctx: ExtensionsContext, submissionId: number, actionSettings: string) {
  requireManageForms(ctx);
  const overrides = jsonObject(actionSettings, "action_settings");
  const row = (await ctx.prisma.formSubmission.findUnique({ where: { id: submissionId } })) ?? pluginError("submission_not_found");
  const form = (await formsLoaders(ctx).formById.load(row.formId))!;
  const fields = await fieldsOf(ctx, row.formId);
  const values = valuesOf(row);
  const settings = { ...(form.emailAction as Record<string, unknown>), ...overrides } as Record<string, unknown>;
  const shown = fields.filter((f) => !FIELD_TYPES_WITHOUT_VALUES.has(f.type));
  const tags: Record<string, string> = {
    all_fields_table: `<table>${shown.map((f) => `<tr><td>${escapeHtml(f.label)}:</td><td>${escapeHtml(valueText(values[String(f.id)]))}</td></tr>`).join("")}</table>`,
    "form:title": form.title, "submission:sequence": String(row.seqNum), "submission:id": String(row.id),
    ...Object.fromEntries(fields.map((f) => [`field:${f.key.toLowerCase()}`, valueText(values[String(f.id)])])),
  };
  const text = (key: string) => mergeTags(typeof settings[key] === "string" ? settings[key] as string : "", tags);
  const to = text("to").split(",").map((a) => a.trim()).filter(Boolean);
  if (to.length === 0 || !to.every((a) => ADDRESS.test(a))) return { sent: false, seqNum: row.seqNum };
  const from = text("from_address");
  const headers = [
    ...(from && ADDRESS.test(from) ? [`From: ${text("from_name") || form.title} <${from}>`] : []),
    ...(text("reply_to") ? [`Reply-To: ${text("reply_to")}`] : []),
    ...(text("cc") ? [`Cc: ${text("cc")}`] : []),
    ...(text("bcc") ? [`Bcc: ${text("bcc")}`] : []),
    "Content-Type: text/html; charset=UTF-8",
  ];
  await ctx.prisma.formsMail.create({ data: { submissionId: row.id, to, subject: text("email_subject") || text("subject") || form.title, body: text("email_message"), headers } });
  return { sent: true, seqNum: row.seqNum };
}
