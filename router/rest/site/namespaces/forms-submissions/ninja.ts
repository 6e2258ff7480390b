// Ninja Forms' request shapes, read once for the forms-submissions and forms-views routes: form id
// lists ("1,2", [1, 2] or 3), SingleSubmission objects (sent as JSON text or as an object), and
// submission lists (ids or SingleSubmission objects). Each reader has the validate callback that
// refuses what it cannot read (rest_invalid_param), so the routes only see readable values.
import type { ArgError, ArgSchema } from "../../route.ts";

export interface SingleSubmission {
  submissionRecordId?: unknown;
  status?: unknown;
  extraValues?: unknown;
  submissionFieldCollection?: Record<string, unknown>;
}

const invalid = (name: string, message: string): ArgError => ({ code: "rest_invalid_param", message: `${name} ${message}` });

/** A positive integer id from a number or a digit string. */
export const idOf = (value: unknown): number | null => {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
};

/** Form ids from "1,2", ["1", 2] or 3. */
export function formIdsOf(value: unknown): number[] {
  const items = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : value === undefined || value === null ? [] : [value];
  return items.map(idOf).filter((id): id is number => id !== null);
}

/** A SingleSubmission sent as JSON text or as an object. */
export function singleSubmissionOf(value: unknown): SingleSubmission | null {
  let decoded = value;
  if (typeof value === "string") {
    try { decoded = JSON.parse(value); } catch { return null; }
  }
  return decoded && typeof decoded === "object" && !Array.isArray(decoded) ? decoded as SingleSubmission : null;
}

/** Submission ids from ids or SingleSubmission objects. */
export function submissionIdsOf(value: unknown): number[] | null {
  if (!Array.isArray(value)) return null;
  const ids = value.map((item) => idOf(item) ?? idOf(singleSubmissionOf(item)?.submissionRecordId));
  return ids.every((id): id is number => id !== null) ? ids : null;
}

export const formIdsArg = (description: string, required = false): ArgSchema => ({
  description, ...(required ? { required: true } : {}),
  validate: (v, _r, name) => (formIdsOf(v).length === 0 ? invalid(name, "must name at least one form id.") : undefined),
});

export const singleSubmissionArg = (description: string, required = true): ArgSchema => ({
  description, ...(required ? { required: true } : {}),
  validate: (v, _r, name) => (singleSubmissionOf(v) && idOf(singleSubmissionOf(v)!.submissionRecordId) ? undefined : invalid(name, "must be a JSON-encoded submission with its submissionRecordId.")),
});

export const submissionsArg = (description: string, required = true): ArgSchema => ({
  description, type: "array", ...(required ? { required: true } : {}),
  validate: (v, _r, name) => (submissionIdsOf(v) ? undefined : invalid(name, "must list submission ids or submissions with their submissionRecordId.")),
});

/** Values of a SingleSubmission's field collection: `{key: {value}}` or `{key: value}`. */
export function fieldValuesOf(single: SingleSubmission): { key: string; value: string }[] {
  const collection = single.submissionFieldCollection;
  if (!collection || typeof collection !== "object") return [];
  return Object.entries(collection).map(([key, field]) => {
    const raw = field && typeof field === "object" && !Array.isArray(field) ? (field as { value?: unknown }).value : field;
    return { key, value: Array.isArray(raw) ? raw.map(String).join(", ") : raw === undefined || raw === null ? "" : String(raw) };
  });
}
