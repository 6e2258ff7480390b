// Formidable's admin install routes (forms-admin/v1): `install` runs the forms database install or
// upgrade, only while the upgrade window a manager opened is open (Formidable's frm_updating_api
// transient), and closes it; `install-addon` takes the one-time connect token Formidable's connect
// link carries (compared in constant time, deleted before installing so it cannot be replayed).
import crypto from "node:crypto";
import type { ExtensionsContext } from "../context.ts";
import { forbidden } from "./errors.ts";
import { deleteOption, readOption, writeOption } from "./options.ts";
import { requireManageForms } from "./permissions.ts";

const UPGRADE_WINDOW = "frm_updating_api";
const CONNECT_TOKEN = "frm_connect_token";
export const FORMS_DB_VERSION = "6.16";

export async function startUpgrade(ctx: ExtensionsContext): Promise<boolean> {
  requireManageForms(ctx);
  await writeOption(ctx.prisma, UPGRADE_WINDOW, true, new Date(Date.now() + 5 * 60_000));
  return true;
}

export async function runInstall(ctx: ExtensionsContext): Promise<boolean> {
  if (!(await readOption<boolean>(ctx.prisma, UPGRADE_WINDOW))) forbidden(ctx.identity);
  await writeOption(ctx.prisma, "frm_db_version", { version: FORMS_DB_VERSION, installedAt: new Date().toISOString() });
  await deleteOption(ctx.prisma, UPGRADE_WINDOW);
  return true;
}

export async function createConnectToken(ctx: ExtensionsContext): Promise<string> {
  requireManageForms(ctx);
  const token = crypto.createHash("sha512").update(crypto.randomBytes(32)).digest("hex");
  await writeOption(ctx.prisma, CONNECT_TOKEN, token);
  return token;
}

export async function installAddon(ctx: ExtensionsContext, token: string, fileUrl: string) {
  const stored = await readOption<string>(ctx.prisma, CONNECT_TOKEN);
  const same = typeof stored === "string" && stored.length === token.length && crypto.timingSafeEqual(Buffer.from(stored), Buffer.from(token));
  if (!token || !fileUrl || !same) forbidden(ctx.identity);
  await deleteOption(ctx.prisma, CONNECT_TOKEN);
  let url: URL;
  try { url = new URL(fileUrl); } catch { return { success: false, message: "Could not install an upgrade. Please download from formidableforms.com and install manually." }; }
  if (url.protocol !== "https:") return { success: false, message: "Could not install an upgrade. Please download from formidableforms.com and install manually." };
  const installed = (await readOption<string[]>(ctx.prisma, "frm_installed_addons")) ?? [];
  await writeOption(ctx.prisma, "frm_installed_addons", [...new Set([...installed, url.toString()])]);
  return { success: true, message: "Your plugin has been activated." };
}
