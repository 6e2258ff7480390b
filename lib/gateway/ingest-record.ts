// One ingested message record (the JSON Lines log the admin command reads, the REST ingest body,
// the GraphQL IngestMessageInput): checked here, for every way in, into a normalised record or
// the violations that refuse it. Addresses are trimmed and lower-cased; one longer than 254
// characters refuses its message (seed 001 §7, §8) and is quoted truncated.
import { addressProblem, headerAddress, MAX_ADDRESS_LENGTH, normaliseAddress } from "./addresses.ts";
import { parseDateTime, type Violation } from "./collection-rules.ts";
import {
  DELIVERY_RESULTS, INGEST_LIMITS, MESSAGE_DIRECTIONS, MESSAGE_ID_PATTERN, MESSAGE_RESULTS,
  type DeliveryResult, type MessageDirection, type MessageResult,
} from "./messages.ts";

export interface IngestAttachment { name: string; contentType: string; size: number; sha256?: string; content: Buffer | null }
export interface IngestEngine { engine: string; result: string; detail: string | null }

export interface IngestRecord {
  id: string;
  messageId: string | null;
  receivedOn: Date;
  sentOn: Date | null;
  sender: string;
  recipients: string[];
  headerFrom: string;
  headerFromAddress: string;
  subject: string;
  senderIp: string | null;
  hostname: string;
  nodeId: string | null;
  direction: MessageDirection;
  size: number;
  result: MessageResult;
  score: number | null;
  deliveryResult: DeliveryResult;
  quarantined: boolean;
  uriHosts: string[];
  headers: { name: string; value: string }[] | null;
  analysis: IngestEngine[] | null;
  attachments: IngestAttachment[];
}

type Raw = Record<string, unknown>;

const isObject = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);

/** The host of a URI, lower-cased, or undefined when it has none. */
export function uriHost(uri: string): string | undefined {
  try {
    const host = new URL(uri).hostname.toLowerCase();
    return host || undefined;
  } catch {
    // A bare host ("example.com/path") counts too.
    const m = /^([a-z0-9.-]+\.[a-z]{2,})(?:[/:?#]|$)/i.exec(uri.trim());
    return m ? m[1].toLowerCase() : undefined;
  }
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A record, or the violations that refuse it; `path` prefixes property paths (e.g. "[3]"). */
export function checkIngestRecord(raw: unknown, path: string): { record: IngestRecord } | { violations: Violation[] } {
  const violations: Violation[] = [];
  const at = (name: string) => `${path}.${name}`;
  const bad = (name: string, message: string) => { violations.push({ propertyPath: at(name), message }); };
  if (!isObject(raw)) return { violations: [{ propertyPath: path, message: "A message record must be a JSON object." }] };

  const str = (name: string, { required = false, max = 998 } = {}): string | null => {
    const v = raw[name];
    if (v === undefined || v === null) {
      if (required) bad(name, "This value should not be blank.");
      return null;
    }
    if (typeof v !== "string") { bad(name, "This value should be of type string."); return null; }
    if (v.length > max) { bad(name, `This value is too long. It should have ${max} characters or less.`); return null; }
    return v;
  };
  const date = (name: string, required: boolean): Date | null => {
    // GraphQL hands over its DateTime scalar already parsed.
    const given = raw[name];
    if (given instanceof Date) return Number.isNaN(given.getTime()) ? (bad(name, "Invalid date."), null) : given;
    const v = str(name, { required, max: 64 });
    if (v === null) return null;
    const d = parseDateTime(v);
    if (!d) bad(name, `The value "${v}" is not an RFC 3339 date-time.`);
    return d ?? null;
  };
  const choice = <T extends string>(name: string, values: readonly T[], fallback?: T): T => {
    const v = raw[name] ?? fallback;
    if (typeof v === "string" && (values as readonly string[]).includes(v)) return v as T;
    bad(name, v === undefined ? "This value should not be blank." : `The value you selected is not a valid choice; allowed: ${values.join(", ")}.`);
    return values[0];
  };
  const address = (name: string, value: string, allowEmpty: boolean): string => {
    const normal = normaliseAddress(value);
    if (allowEmpty && normal === "") return "";
    const problem = addressProblem(normal);
    if (problem) bad(name, problem);
    return normal;
  };
  const list = (name: string, max: number): unknown[] => {
    const v = raw[name];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) { bad(name, "This value should be of type array."); return []; }
    if (v.length > max) { bad(name, `This collection should contain ${max} elements or less.`); return []; }
    return v;
  };

  const id = str("id", { required: true, max: 64 }) ?? "";
  if (id && !MESSAGE_ID_PATTERN.test(id)) bad("id", "The id must be 1 to 64 of A-Z a-z 0-9 . _ -.");
  const rawSender = str("sender", { required: true, max: 100_000 });
  const sender = rawSender === null ? "" : address("sender", rawSender, true);
  const rawRecipients = list("recipients", INGEST_LIMITS.recipients);
  if (!rawRecipients.length && !violations.some((v) => v.propertyPath === at("recipients"))) bad("recipients", "A message has at least one recipient.");
  const recipients = [...new Set(rawRecipients.map((r, i) => typeof r === "string" ? address(`recipients[${i}]`, r, false) : (bad(`recipients[${i}]`, "This value should be of type string."), "")))];
  const rawFrom = str("headerFrom", { max: 100_000 });
  const headerFrom = rawFrom ?? rawSender ?? "";
  let headerFromAddress = headerAddress(headerFrom);
  if (headerFromAddress !== "") {
    const problem = addressProblem(headerFromAddress);
    if (problem && headerFromAddress.length > MAX_ADDRESS_LENGTH) bad("headerFrom", problem);
    else if (problem) headerFromAddress = ""; // a From header without a usable address is kept as written
  }
  if (headerFrom.length > INGEST_LIMITS.header && !violations.some((v) => v.propertyPath === at("headerFrom"))) {
    bad("headerFrom", `This value is too long. It should have ${INGEST_LIMITS.header} characters or less.`);
  }
  const size = raw.size;
  if (typeof size !== "number" || !Number.isInteger(size) || size < 0 || size > 2 ** 31 - 1) bad("size", "The size must be a whole number of bytes (0 to 2147483647).");
  const score = raw.score;
  if (score !== undefined && score !== null && (typeof score !== "number" || !Number.isFinite(score))) bad("score", "The score must be a number.");
  const quarantined = raw.quarantined ?? false;
  if (typeof quarantined !== "boolean") bad("quarantined", "This value should be of type bool.");

  const uriHosts = new Set<string>();
  list("uris", INGEST_LIMITS.uris).forEach((u, i) => {
    if (typeof u !== "string" || u.length > 8192) { bad(`uris[${i}]`, "A URI must be a string of at most 8192 characters."); return; }
    const host = uriHost(u);
    if (host) uriHosts.add(host);
  });
  const headers = raw.headers === undefined || raw.headers === null ? null : list("headers", INGEST_LIMITS.headers).map((h, i) => {
    if (!isObject(h) || typeof h.name !== "string" || typeof h.value !== "string" || h.name.length > 200 || h.value.length > INGEST_LIMITS.header) {
      bad(`headers[${i}]`, "A header is { name, value } with strings (value up to 998 characters).");
      return { name: "", value: "" };
    }
    return { name: h.name, value: h.value };
  });
  const analysis = raw.analysis === undefined || raw.analysis === null ? null : list("analysis", INGEST_LIMITS.analysis).map((e, i) => {
    if (!isObject(e) || typeof e.engine !== "string" || typeof e.result !== "string" || (e.detail != null && typeof e.detail !== "string")) {
      bad(`analysis[${i}]`, "An analysis entry is { engine, result, detail? } with strings.");
      return { engine: "", result: "", detail: null };
    }
    return { engine: e.engine.slice(0, 100), result: e.result.slice(0, 200), detail: typeof e.detail === "string" ? e.detail.slice(0, 2000) : null };
  });
  const attachments = list("attachments", INGEST_LIMITS.attachments).map((a, i): IngestAttachment => {
    const name = `attachments[${i}]`;
    if (!isObject(a) || typeof a.name !== "string" || a.name === "" || a.name.length > 255) {
      bad(name, "An attachment has a name of 1 to 255 characters.");
      return { name: "", contentType: "", size: 0, content: null };
    }
    const contentType = typeof a.contentType === "string" && /^[\w.+-]+\/[\w.+-]+$/.test(a.contentType) ? a.contentType.toLowerCase() : "application/octet-stream";
    let content: Buffer | null = null;
    if (a.content !== undefined && a.content !== null) {
      if (typeof a.content !== "string" || !BASE64.test(a.content.replace(/\s/g, ""))) bad(`${name}.content`, "The content must be base64.");
      else {
        content = Buffer.from(a.content, "base64");
        if (content.length > INGEST_LIMITS.attachmentBytes) bad(`${name}.content`, `An attachment holds at most ${INGEST_LIMITS.attachmentBytes} bytes.`);
      }
    }
    const declared = a.size;
    if (declared !== undefined && declared !== null && (typeof declared !== "number" || !Number.isInteger(declared) || declared < 0 || declared > 2 ** 31 - 1)) bad(`${name}.size`, "The size must be a whole number of bytes.");
    const sizeOf = content ? content.length : typeof declared === "number" ? declared : 0;
    const sha256 = typeof a.sha256 === "string" && /^[0-9a-f]{64}$/i.test(a.sha256) ? a.sha256.toLowerCase() : undefined;
    return { name: a.name, contentType, size: sizeOf, sha256, content };
  });

  const record: IngestRecord = {
    id,
    messageId: str("messageId", { max: 998 }),
    receivedOn: date("receivedOn", true) ?? new Date(0),
    sentOn: date("sentOn", false),
    sender, recipients, headerFrom, headerFromAddress,
    subject: str("subject", { max: INGEST_LIMITS.subject }) ?? "",
    senderIp: str("senderIp", { max: 45 }),
    hostname: (str("hostname", { required: true, max: 253 }) ?? "").toLowerCase(),
    nodeId: str("nodeId", { max: 64 }),
    direction: choice("direction", MESSAGE_DIRECTIONS),
    size: typeof size === "number" ? size : 0,
    result: choice("result", MESSAGE_RESULTS),
    score: typeof score === "number" ? score : null,
    deliveryResult: choice("deliveryResult", DELIVERY_RESULTS),
    quarantined: quarantined === true,
    uriHosts: [...uriHosts],
    headers, analysis, attachments,
  };
  return violations.length ? { violations } : { record };
}

export interface CheckedBatch { records: IngestRecord[]; rejected: { index: number; id: unknown; violations: Violation[] }[] }

/** Every record checked: the good ones, and the refused ones with their violations (paths `[index].property`). */
export function checkIngestBatch(raws: readonly unknown[], offset = 0): CheckedBatch {
  const batch: CheckedBatch = { records: [], rejected: [] };
  raws.forEach((raw, i) => {
    const checked = checkIngestRecord(raw, `[${offset + i}]`);
    if ("record" in checked) batch.records.push(checked.record);
    else batch.rejected.push({ index: offset + i, id: (raw as { id?: unknown } | null)?.id, violations: checked.violations });
  });
  return batch;
}
