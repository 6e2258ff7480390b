// Forms and their submissions as stored: creating forms, the front end's submit, and the views of
// a stored submission (values in field order, the normalised email address).
import type { Form, FormField, FormSubmission, Prisma } from "../../../generated/prisma/client.ts";
import type { ExtensionsContext } from "../context.ts";
import { pluginError } from "./errors.ts";
import { clearFormsLoaders, formsLoaders } from "./loaders.ts";
import { requireManageForms } from "./permissions.ts";

/** A submission's values: field id → the value (a list for multi-value fields). */
export type StoredValues = Record<string, string | string[]>;

export const FIELD_TYPES_WITHOUT_VALUES = new Set(["submit", "html", "hr"]);

/** The email gateway's key of an address: trimmed and lower-cased; null when blank. */
export const normaliseAddress = (value: string | null | undefined): string | null => {
  const trimmed = (value ?? "").trim().toLowerCase();
  return trimmed === "" ? null : trimmed;
};

export const valuesOf = (row: FormSubmission): StoredValues => (row.values && typeof row.values === "object" && !Array.isArray(row.values) ? row.values as StoredValues : {});

/** A value as text: lists joined with ", " (Ninja Forms' serialized arrays). */
export const valueText = (value: string | string[] | undefined): string => (Array.isArray(value) ? value.join(", ") : value ?? "");

export function formView(form: Form) {
  return { id: form.id, title: form.title, createdAt: form.createdAt.toISOString() };
}

export async function submissionView(ctx: ExtensionsContext, row: FormSubmission) {
  const fields = await formsLoaders(ctx).fieldsByForm.load(row.formId);
  const values = valuesOf(row);
  return {
    id: row.id,
    formId: row.formId,
    seqNum: row.seqNum,
    status: row.status === "trash" ? "TRASH" as const : "ACTIVE" as const,
    submittedAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    values: fields.filter((f) => !FIELD_TYPES_WITHOUT_VALUES.has(f.type)).map((f) => ({ fieldId: f.id, key: f.key, value: valueText(values[String(f.id)]) })),
    extra: JSON.stringify(row.extra ?? {}),
    submitterId: row.submitterId,
    email: row.email ? { address: row.email } : null,
  };
}

export type SubmissionView = Awaited<ReturnType<typeof submissionView>>;

function jsonObject(text: string | null | undefined, param: string): Prisma.InputJsonObject {
  if (text === undefined || text === null || text === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Prisma.InputJsonObject;
  } catch { /* reported below */ }
  return pluginError("invalid_value", { status: 400, message: `${param} must be a JSON object.` });
}
export { jsonObject };

export async function createForm(ctx: ExtensionsContext, input: { title: string; fields: readonly { key: string; label: string; type: string; crmContactId?: boolean | null }[]; emailAction?: string | null }) {
  requireManageForms(ctx);
  const title = input.title.trim();
  if (!title) pluginError("invalid_value", { message: "A form needs a title." });
  const keys = new Set<string>();
  for (const f of input.fields) {
    if (!/^[a-z0-9_-]{1,64}$/i.test(f.key)) pluginError("invalid_value", { message: `Invalid field key "${f.key}".` });
    if (keys.has(f.key)) pluginError("invalid_value", { message: `Duplicate field key "${f.key}".` });
    keys.add(f.key);
  }
  const form = await ctx.prisma.form.create({
    data: {
      title, emailAction: jsonObject(input.emailAction, "emailAction"),
      fields: { create: input.fields.map((f, order) => ({ key: f.key, label: f.label, type: f.type, order, crmContactId: f.crmContactId ?? false })) },
    },
  });
  clearFormsLoaders(ctx);
  return formView(form);
}

export async function listForms(ctx: ExtensionsContext) {
  requireManageForms(ctx);
  return (await ctx.prisma.form.findMany({ orderBy: { id: "asc" } })).map(formView);
}

export async function readForm(ctx: ExtensionsContext, id: number) {
  requireManageForms(ctx);
  const form = await formsLoaders(ctx).formById.load(id);
  return form ? formView(form) : null;
}

export async function fieldsOf(ctx: ExtensionsContext, formId: number): Promise<FormField[]> {
  return formsLoaders(ctx).fieldsByForm.load(formId);
}

/** The form's email field value: the first field of type email. */
export function emailOf(fields: readonly FormField[], values: StoredValues): string | null {
  const field = fields.find((f) => f.type === "email");
  return field ? normaliseAddress(valueText(values[String(field.id)])) : null;
}

/** Values by key → values by field id (unknown keys refused). */
export function valuesByField(fields: readonly FormField[], values: readonly { key: string; value: string }[]): StoredValues {
  const out: StoredValues = {};
  for (const { key, value } of values) {
    const field = fields.find((f) => f.key === key);
    if (!field) pluginError("invalid_value", { message: `The form has no field "${key}".` });
    if (FIELD_TYPES_WITHOUT_VALUES.has(field.type)) continue;
    out[String(field.id)] = field.type === "listcheckbox" ? value.split(",").map((v) => v.trim()).filter(Boolean) : value;
  }
  return out;
}

/** The front end's submit: anyone may submit a form; the sequence number is taken in the same transaction. */
export async function submitForm(ctx: ExtensionsContext, formId: number, values: readonly { key: string; value: string }[], crmContactId?: string | null) {
  const form = await ctx.prisma.form.findUnique({ where: { id: formId } });
  if (!form) pluginError("form_not_found");
  const fields = await fieldsOf(ctx, formId);
  const stored = valuesByField(fields, values);
  const contactField = fields.find((f) => f.crmContactId);
  const contact = crmContactId ?? (contactField ? valueText(stored[String(contactField.id)]) || null : null);
  const row = await ctx.prisma.$transaction(async (tx) => {
    const { nextSeqNum } = await tx.form.update({ where: { id: formId }, data: { nextSeqNum: { increment: 1 } }, select: { nextSeqNum: true } });
    return tx.formSubmission.create({
      data: { formId, seqNum: nextSeqNum - 1, values: stored, email: emailOf(fields, stored), crmContactId: contact, submitterId: ctx.identity.site?.userId ?? null },
    });
  });
  return submissionView(ctx, row);
}

/** A form as the resolvers carry it (its fields are resolved through the loader). */
export type FormView = ReturnType<typeof formView>;
