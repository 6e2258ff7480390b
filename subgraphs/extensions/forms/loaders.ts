// Per-request loaders of the forms area, kept beside the context (one set per request): a list of
// submissions or forms reads every form's fields in one statement.
import DataLoader from "dataloader";
import type { Form, FormField } from "../../../generated/prisma/client.ts";
import type { ExtensionsContext } from "../context.ts";

export interface FormsLoaders {
  fieldsByForm: DataLoader<number, FormField[]>;
  formById: DataLoader<number, Form | null>;
}

const perRequest = new WeakMap<ExtensionsContext, FormsLoaders>();

export function formsLoaders(ctx: ExtensionsContext): FormsLoaders {
  let loaders = perRequest.get(ctx);
  if (!loaders) {
    loaders = {
      fieldsByForm: new DataLoader(async (ids) => {
        const rows = await ctx.prisma.formField.findMany({ where: { formId: { in: [...ids] } }, orderBy: [{ order: "asc" }, { id: "asc" }] });
        return ids.map((id) => rows.filter((r) => r.formId === id));
      }),
      formById: new DataLoader(async (ids) => {
        const rows = await ctx.prisma.form.findMany({ where: { id: { in: [...ids] } } });
        return ids.map((id) => rows.find((r) => r.id === id) ?? null);
      }),
    };
    perRequest.set(ctx, loaders);
  }
  return loaders;
}

/** Forgets what was read (after a write). */
export function clearFormsLoaders(ctx: ExtensionsContext): void {
  perRequest.delete(ctx);
}
