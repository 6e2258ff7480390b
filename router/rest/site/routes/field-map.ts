// REST argument names → GraphQL input fields: one mechanism for write inputs and list filters.
// A mapping is the GraphQL field's name, or the name and a conversion where the value changes shape.
import type { ValidatedParams } from "../route.ts";

export type FieldMap = Record<string, string | [string, (value: unknown) => unknown]>;

/** The GraphQL input from the arguments that `take` accepts; absent, null and unconvertible values are left out. */
export function mapFields(map: FieldMap, params: ValidatedParams, take: (name: string) => boolean): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [name, mapping] of Object.entries(map)) {
    if (!take(name) || params[name] === undefined || params[name] === null) continue;
    const [field, convert] = typeof mapping === "string" ? [mapping, (v: unknown) => v] : mapping;
    const value = convert(params[name]);
    if (value !== undefined) input[field] = value;
  }
  return input;
}

/** title/content/excerpt/caption/description: a string, or an object's `raw`; anything else is ignored (WordPress does not validate them). */
export const rawText = (value: unknown): string | undefined =>
  typeof value === "string" ? value
    : value && typeof value === "object" && typeof (value as { raw?: unknown }).raw === "string" ? (value as { raw: string }).raw
      : undefined;
