// The CRM webhook (the Formidable HubSpot add-on's webhooks route, forms/v2/crm/webhooks): when
// HubSpot privacy-deletes a contact, the email stored in the submissions sent as that contact is
// erased (overwritten with "", not deleted). The signature is checked here, before anything is
// read, with HubSpot's documented schemes and the app's client secret (HUBSPOT_CLIENT_SECRET):
//   v1  sha256 hex of secret + body
//   v2  sha256 hex of secret + method + URI + body
//   v3  base64 HMAC-SHA-256 (key: secret) of method + URI + body + timestamp, timestamp within 5 minutes
// Comparisons are constant-time. A site without a secret is not connected: 401 unauthorized.
import crypto from "node:crypto";
import type { ExtensionsContext } from "../context.ts";
import { forbidden, pluginError } from "./errors.ts";
import { fieldsOf, valuesOf, type StoredValues } from "./forms.ts";
import { clearFormsLoaders } from "./loaders.ts";

export const V3_WINDOW_MS = 5 * 60 * 1000;

export interface SignedCall {
  signature: string;
  /** v1, v2 or v3 (absent: v1, HubSpot's default for CRM webhook subscriptions). */
  signatureVersion?: string | null;
  /** Milliseconds since the epoch (X-HubSpot-Request-Timestamp), for v3. */
  timestamp?: string | null;
  method: string;
  uri: string;
  body: string;
}

/** HubSpot v3 hashes the URI with these percent-encodings decoded. */
const V3_DECODED: Record<string, string> = {
  "%3A": ":", "%2F": "/", "%3F": "?", "%40": "@", "%21": "!", "%24": "$", "%27": "'", "%28": "(", "%29": ")", "%2A": "*", "%2C": ",", "%3B": ";",
};
const decodeV3Uri = (uri: string) => uri.replace(/%(3A|2F|3F|40|21|24|27|28|29|2A|2C|3B)/gi, (m) => V3_DECODED[m.toUpperCase()]);

/** The signature HubSpot would have sent for this call. */
export function expectedSignature(secret: string, call: SignedCall): string {
  const version = (call.signatureVersion ?? "v1").toLowerCase();
  const sha256 = (text: string) => crypto.createHash("sha256").update(text, "utf8").digest("hex");
  if (version === "v3") return crypto.createHmac("sha256", secret).update(`${call.method.toUpperCase()}${decodeV3Uri(call.uri)}${call.body}${call.timestamp ?? ""}`, "utf8").digest("base64");
  if (version === "v2") return sha256(`${secret}${call.method.toUpperCase()}${call.uri}${call.body}`);
  return sha256(`${secret}${call.body}`);
}

/** Constant-time equality of two strings of any length (both are hashed to equal lengths first). */
function sameText(a: string, b: string): boolean {
  const digest = (s: string) => crypto.createHash("sha256").update(s, "utf8").digest();
  return crypto.timingSafeEqual(digest(a), digest(b)) && a.length === b.length;
}

/** Whether the call carries a valid signature, at `now` (v3's timestamp must be within 5 minutes). */
export function verifySignature(secret: string, call: SignedCall, now: number = Date.now()): boolean {
  const version = (call.signatureVersion ?? "v1").toLowerCase();
  if (!["v1", "v2", "v3"].includes(version)) return false;
  if (version === "v3") {
    const ts = Number(call.timestamp);
    if (!call.timestamp || !Number.isFinite(ts) || Math.abs(now - ts) > V3_WINDOW_MS) return false;
  }
  return sameText(expectedSignature(secret, call), call.signature.trim());
}

export async function receiveCrmWebhook(ctx: ExtensionsContext, input: SignedCall & { portalId: number; objectId: number }, now: number = Date.now()) {
  if (!Number.isInteger(input.portalId) || input.portalId <= 0 || !Number.isInteger(input.objectId) || input.objectId <= 0) pluginError("rest_invalid_portalid");
  const secret = ctx.config.formsPlugins.hubspotClientSecret;
  if (!secret) pluginError("unauthorized");
  if (!verifySignature(secret, input, now)) forbidden(ctx.identity);

  const contact = String(input.objectId);
  const rows = await ctx.prisma.formSubmission.findMany({ where: { crmContactId: contact }, orderBy: { id: "asc" } });
  if (rows.length === 0) pluginError("action_not_allowed");
  // The fields are read first: the transaction then only writes.
  const erasures: { id: number; values: StoredValues; fieldId: number }[] = [];
  for (const row of rows) {
    const email = (await fieldsOf(ctx, row.formId)).find((f) => f.type === "email");
    if (email) erasures.push({ id: row.id, values: { ...valuesOf(row), [String(email.id)]: "" }, fieldId: email.id });
  }
  await ctx.prisma.$transaction(erasures.map((e) => ctx.prisma.formSubmission.update({ where: { id: e.id }, data: { values: e.values, email: null } })));
  const first = erasures[0] ? { entryId: String(erasures[0].id), fieldId: String(erasures[0].fieldId) } : undefined;
  clearFormsLoaders(ctx);
  if (!first) pluginError("action_not_allowed", { status: 304, message: "Not allowed!" });
  return first;
}
