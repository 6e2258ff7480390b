// Forms (seed 000 §4.6): Ninja Forms-compatible submissions (forms-submissions) and submissions
// table (forms-views), Formidable's install routes (forms-admin/v1) and the HubSpot-signed CRM
// webhook (forms/v2), over REST and GraphQL, with the submission's email linked to the email
// gateway's EmailAddress through federation.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectedSignature, receiveCrmWebhook, verifySignature } from "../../subgraphs/extensions/forms/crm-webhook.ts";
import type { ExtensionsContext } from "../../subgraphs/extensions/context.ts";
import { parseRangeDate } from "../../subgraphs/extensions/forms/export.ts";
import { GATEWAY_ADMIN_PASSWORD, startTestSystem, type TestSystem } from "../helpers/system.ts";
import { createUserWithPassword, type SignedInUser } from "../helpers/users.ts";

const SECRET = "yyyyyyyy-yyyy-yyyy-yyyy-yyyyyyyyyyyy";
let system: TestSystem;
let dataDir: string;
let subscriber: SignedInUser;
let formId: number;
let otherFormId: number;
const fieldIds: Record<string, number> = {};
const submissions: number[] = [];

const admin = async <T = any>(query: string, variables: Record<string, unknown> = {}) => {
  const r = await system.graphql<T>(query, variables, { auth: "admin" });
  expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
  return r.data!;
};

const submit = (values: { key: string; value: string }[], crmContactId?: string) =>
  system.graphql<{ submitForm: { id: number; seqNum: number } }>(
    `mutation($formId: Int!, $values: [FormValueInput!]!, $crm: String) { submitForm(formId: $formId, values: $values, crmContactId: $crm) { id seqNum } }`,
    { formId, values, crm: crmContactId ?? null },
  );

/** `auth` null: anonymous. */
type Auth = "admin" | SignedInUser["auth"] | null;
const post = (p: string, body: unknown, auth: Auth = "admin", headers: Record<string, string> = {}) =>
  system.request("POST", `/wp-json${p}`, { body, auth: auth ?? undefined, headers });
const get = (p: string, auth: Auth = "admin", headers: Record<string, string> = {}) =>
  system.request("GET", `/wp-json${p}`, { auth: auth ?? undefined, headers });

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "forms-test-"));
  system = await startTestSystem({ DATA_DIR: dataDir, HUBSPOT_CLIENT_SECRET: SECRET });
  subscriber = await createUserWithPassword(system, "formsub", ["subscriber"]);
  const created = await admin<{ createForm: { id: number; fields: { id: number; key: string }[] } }>(
    `mutation($input: CreateFormInput!) { createForm(input: $input) { id fields { id key } } }`,
    {
      input: {
        title: "Contact",
        fields: [
          { key: "name", label: "Name", type: "textbox" }, { key: "email", label: "Email", type: "email" },
          { key: "topics", label: "Topics", type: "listcheckbox" }, { key: "hubspot_id", label: "HubSpot id", type: "hidden", crmContactId: true },
          { key: "submit", label: "Send", type: "submit" },
        ],
        emailAction: JSON.stringify({ to: "{field:email}", email_subject: "Thanks {field:name}", email_message: "{all_fields_table}", from_address: "site@example.test" }),
      },
    },
  );
  formId = created.createForm.id;
  for (const f of created.createForm.fields) fieldIds[f.key] = f.id;
  otherFormId = (await admin<{ createForm: { id: number } }>(`mutation { createForm(input: { title: "Other", fields: [{ key: "q", label: "Q", type: "textbox" }] }) { id } }`)).createForm.id;
  for (const [name, email, contact] of [["Ann", " Ann@Example.COM ", "501"], ["Bob", "bob@example.com", "502"], ["=HYPERLINK(1)", "carol@example.com", "503"]]) {
    const r = await submit([{ key: "name", value: name }, { key: "email", value: email }, { key: "topics", value: "a, b" }, { key: "hubspot_id", value: contact }]);
    expect(r.errors).toBeUndefined();
    submissions.push(r.data!.submitForm.id);
  }
});
afterAll(async () => {
  await system?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("forms-submissions", () => {
  it("lists columns and data as Ninja Forms does, for managers only", async () => {
    const columns = await get(`/forms-submissions/submissions/get?form_ids=${formId}&type=columns`);
    expect(columns.status).toBe(200);
    expect(columns.body.map((c: { key: string }) => c.key)).toEqual(["name", "email", "topics", "hubspot_id"]);
    const data = await get(`/forms-submissions/submissions/get?form_ids=${formId}&type=data&page_size=2`);
    expect(data.body.count).toBe(3);
    // The newest two, keyed by submission id.
    expect(Object.keys(data.body.data).sort()).toEqual([String(submissions[1]), String(submissions[2])].sort());
    const carol = data.body.data[String(submissions[2])];
    expect(carol.submissionFieldCollection.email.value).toBe("carol@example.com");
    expect(carol.submissionFieldCollection.topics.value).toBe("a, b");
    expect(carol).toMatchObject({ formId, status: "publish", seq_num: 3, submissionRecordId: submissions[2] });
    const search = await get(`/forms-submissions/submissions/get?form_ids=${formId}&type=data&search_term=BOB`);
    expect(search.body.count).toBe(1);
    // LIKE wildcards in the term are literal.
    expect((await get(`/forms-submissions/submissions/get?form_ids=${formId}&type=data&search_term=%25`)).body.count).toBe(0);
    expect((await get(`/forms-submissions/submissions/get?form_ids=${formId}&type=data&search_term=a_%20b`)).body.count).toBe(0);
    expect((await get(`/forms-submissions/submissions/get?form_ids=${formId}&type=data&search_term=a,%20b`)).body.count).toBe(3);

    const malformed = await get(`/forms-submissions/submissions/get?form_ids=${formId}`);
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe("malformed_request");
    expect((await get(`/forms-submissions/submissions/get?type=data`)).body.code).toBe("rest_missing_callback_param");
    const anonymous = await get(`/forms-submissions/submissions/get?form_ids=${formId}&type=data`, null);
    expect([anonymous.status, anonymous.body.code]).toEqual([401, "rest_forbidden"]);
    const signedIn = await get(`/forms-submissions/submissions/get?form_ids=${formId}&type=data`, subscriber.auth);
    expect([signedIn.status, signedIn.body.code]).toEqual([403, "rest_forbidden"]);
  });

  it("filters by unix start and end dates, and answers GraphQL callers with the same rules", async () => {
    const hourAgo = Math.floor(Date.now() / 1000) - 3600;
    expect((await get(`/forms-submissions/submissions/get?form_ids=${formId}&type=data&start_date=${hourAgo}`)).body.count).toBe(3);
    expect((await get(`/forms-submissions/submissions/get?form_ids=${formId}&type=data&end_date=${hourAgo}`)).body.count).toBe(0);
    const anonymous = await system.graphql(`{ forms { id } }`);
    expect(anonymous.errors?.[0].extensions).toMatchObject({ code: "rest_forbidden", status: 401 });
    const forms = await admin<{ forms: { title: string; fields: { key: string }[] }[] }>(`{ forms { title fields { key } } }`);
    expect(forms.forms.map((f) => f.title)).toEqual(["Contact", "Other"]);
    expect(forms.forms[0].fields.map((f) => f.key)).toEqual(["name", "email", "topics", "hubspot_id", "submit"]);
  });

  it("bins, restores and updates submissions", async () => {
    const del = await post("/forms-submissions/submissions/delete", { submissions: [{ submissionRecordId: submissions[1] }] });
    expect([del.status, del.body]).toEqual([200, "ok"]);
    let trash = await get(`/forms-submissions/submissions/get?form_ids=${formId}&type=data&status=trash`);
    expect(Object.keys(trash.body.data)).toEqual([String(submissions[1])]);
    expect((await get(`/forms-submissions/submissions/get?form_ids=${formId}&type=data`)).body.count).toBe(2);
    const restore = await post("/forms-submissions/submissions/restore", { restore: true, submissions: [submissions[1]] });
    expect(restore.body).toBe("ok");
    trash = await get(`/forms-submissions/submissions/get?form_ids=${formId}&type=data&status=trash`);
    expect(trash.body.count).toBe(0);
    expect((await post("/forms-submissions/submissions/restore", { submissions: [1] })).body.code).toBe("rest_missing_callback_param");

    const update = await post("/forms-submissions/submissions/update", {
      singleSubmission: JSON.stringify({ submissionRecordId: submissions[1], submissionFieldCollection: { name: { value: "Robert" }, email: { value: "ROBERT@example.com" } } }),
    });
    expect(update.body).toBe("ok");
    const read = await admin<{ formSubmissions: { nodes: { id: number; values: { key: string; value: string }[]; email: { address: string } | null }[] } }>(
      `query($f: FormSubmissionFilter!) { formSubmissions(filter: $f) { nodes { id values { key value } email { address } } } }`, { f: { formId, search: "robert" } });
    expect(read.formSubmissions.nodes[0].values.find((v) => v.key === "name")!.value).toBe("Robert");
    expect(read.formSubmissions.nodes[0].email).toEqual({ address: "robert@example.com" });
    const bad = await post("/forms-submissions/submissions/update", { singleSubmission: "{not json" });
    expect([bad.status, bad.body.code]).toEqual([400, "rest_invalid_param"]);
  });

  it("runs submission handlers and refuses unknown ones", async () => {
    const csv = await post("/forms-submissions/submissions/handle-extra", { singleSubmission: { submissionRecordId: submissions[0] }, handleExtra: "csv" });
    expect(csv.body).toMatchObject({ responseType: "download", download: true, blobType: "text/csv" });
    expect(csv.body.result).toContain("Ann@Example.COM");
    const unknown = await post("/forms-submissions/submissions/handle-extra", { singleSubmission: { submissionRecordId: submissions[0] }, handleExtra: "Evil\\Class" });
    expect([unknown.status, unknown.body.code, unknown.body.message]).toEqual([400, "handler_not_recognized", "Submission handler not recognized."]);
  });

  it("exports CSV by forms and date range (parsed like strtotime), one submission, or selected ids", async () => {
    const all = await post("/forms-submissions/export", { form_ids: `${formId},${otherFormId}`, start_date: "yesterday", end_date: "tomorrow" });
    expect(all.status).toBe(200);
    expect(Object.keys(all.body).sort()).toEqual([String(formId), String(otherFormId)].sort());
    const lines = all.body[String(formId)].trim().split("\n");
    expect(lines[0]).toBe("#,Date Submitted,Name,Email,Topics,HubSpot id");
    expect(lines).toHaveLength(4);
    // A value that a spreadsheet would run as a formula is neutralised.
    expect(all.body[String(formId)]).toContain("'=HYPERLINK(1)");
    const past = await post("/forms-submissions/export", { form_ids: String(formId), start_date: "2001-01-01", end_date: "2001-12-31" });
    expect(past.body[String(formId)].trim().split("\n")).toHaveLength(1);
    const bad = await post("/forms-submissions/export", { form_ids: String(formId), start_date: "the day after never", end_date: "today" });
    expect([bad.status, bad.body.code]).toEqual([400, "rest_invalid_date"]);
    const one = await post("/forms-submissions/export", { singleSubmission: JSON.stringify({ submissionRecordId: submissions[0] }) });
    expect(one.body[String(formId)].trim().split("\n")).toHaveLength(2);
    const picked = await post("/forms-submissions/export", { form_ids: String(formId), submissions: [submissions[0], submissions[2]] });
    expect(picked.body[String(formId)].trim().split("\n")).toHaveLength(3);
    // Ninja Forms needs both ends of a range with form_ids; anything less is malformed.
    for (const body of [{}, { form_ids: String(formId) }, { form_ids: String(formId), start_date: "yesterday" }, { submissions: [submissions[0]] }]) {
      const none = await post("/forms-submissions/export", body);
      expect([none.status, none.body.code], JSON.stringify(body)).toEqual([400, "malformed_request"]);
    }
  });

  it("parses range dates with a real date parser", async () => {
    const now = new Date("2024-03-15T12:00:00Z");
    expect((await parseRangeDate("2024-01-05", "start", now)).getDate()).toBe(5);
    const end = await parseRangeDate("2024-01-05", "end", now);
    expect([end.getDate(), end.getHours(), end.getMinutes()]).toEqual([5, 23, 59]);
    expect((await parseRangeDate("3 days ago", "start", now)).getDate()).toBe(12);
    expect((await parseRangeDate("1700000000", "start", now)).getTime()).toBe(1700000000_000);
    await expect(parseRangeDate("banana", "start", now)).rejects.toThrow();
  });

  it("writes download-all files the caller fetches and deletes, and refuses paths outside the export directory", async () => {
    const file = await post("/forms-submissions/download-all", { form_ids: String(formId) });
    expect(file.status).toBe(200);
    expect(file.body.formId).toBe(String(formId));
    expect(fs.existsSync(file.body.filePath)).toBe(true);
    const served = await system.request("GET", new URL(file.body.downloadUrl).pathname);
    expect(served.status).toBe(200);
    expect(served.text).toContain("carol@example.com");

    const exportDir = path.dirname(file.body.filePath);
    const outside = path.join(dataDir, "keep.txt");
    fs.writeFileSync(outside, "keep");
    fs.symlinkSync(outside, path.join(exportDir, "link.csv"));
    for (const filePath of [`${exportDir}/../keep.txt`, outside, "/etc/passwd", "../keep.txt", path.join(exportDir, "link.csv"), "link.csv"]) {
      const refused = await post("/forms-submissions/delete-download-file", { file_path: filePath });
      expect([refused.status, refused.body.code], filePath).toEqual([403, "rest_forbidden"]);
    }
    expect(fs.readFileSync(outside, "utf8")).toBe("keep");
    const anonymous = await post("/forms-submissions/delete-download-file", { file_path: file.body.filePath }, null);
    expect(anonymous.status).toBe(401);
    const deleted = await post("/forms-submissions/delete-download-file", { file_path: file.body.filePath });
    expect(deleted.body).toEqual({ result: true });
    expect(fs.existsSync(file.body.filePath)).toBe(false);
    expect((await post("/forms-submissions/delete-download-file", { file_path: file.body.filePath })).body).toEqual({ result: false });
  });

  it("stores submissions settings as Ninja Forms answers them (double-encoded)", async () => {
    expect((await get("/forms-submissions/get-submissions-settings")).body).toBe("false");
    const first = await post("/forms-submissions/set-submissions-settings", { settingName: "columns", data: { hidden: ["topics"] }, formID: String(formId) });
    expect(JSON.parse(first.body)).toEqual({ message: "add_option", status: true });
    const same = await post("/forms-submissions/set-submissions-settings", { settingName: "columns", data: { hidden: ["topics"] }, formID: String(formId) });
    expect(JSON.parse(same.body)).toEqual({ message: "unchanged", status: false });
    const changed = await post("/forms-submissions/set-submissions-settings", { settingName: "columns", data: { hidden: [] }, formID: String(formId) });
    expect(JSON.parse(changed.body)).toEqual({ message: "update_option", status: true });
    const all = await get("/forms-submissions/get-submissions-settings");
    expect(JSON.parse(all.body)).toEqual({ [String(formId)]: { columns: { hidden: [] } } });
  });

  it("re-runs the email action with merge tags; answers the sequence number when nothing is sent", async () => {
    const sent = await post("/forms-submissions/email-action", { submission: submissions[0], action_settings: { email_subject: "Hello {field:name}" } });
    expect(sent.body).toBe(true);
    const mail = await system.db.prisma.formsMail.findFirstOrThrow({ where: { submissionId: submissions[0] } });
    expect(mail.to).toEqual(["Ann@Example.COM"]);
    expect(mail.subject).toBe("Hello Ann");
    expect(mail.body).toContain("<td>Name:</td><td>Ann</td>");
    const notSent = await post("/forms-submissions/email-action", { submission: submissions[0], action_settings: { to: "" } });
    expect(notSent.body).toBe(1);
    expect((await post("/forms-submissions/email-action", { submission: 999999, action_settings: {} })).body).toMatchObject({ code: "submission_not_found", data: { status: 404 } });
  });
});

describe("forms-views", () => {
  const viewKey = () => crypto.createHmac("sha256", system.config.secretKey).update("forms-views-token-v1").digest();
  const tokenFor = async (formIds: number[]) =>
    (await admin<{ createFormViewToken: { token: string } }>(`mutation($ids: [Int!]!) { createFormViewToken(formIds: $ids) { token } }`, { ids: formIds })).createFormViewToken.token;
  const expiredToken = (formIds: number[], secondsAgo: number) =>
    new SignJWT({ formIds }).setProtectedHeader({ alg: "HS256" }).setJti("x").setAudience("forms-views").setIssuedAt(Math.floor(Date.now() / 1000) - secondsAgo - 900)
      .setExpirationTime(Math.floor(Date.now() / 1000) - secondsAgo).sign(viewKey());
  const auth = (token: string) => ({ "X-NinjaFormsViews-Auth": token });

  it("shows managers every form keyed by id and token holders only the token's forms", async () => {
    const asAdmin = await get("/forms-views/forms");
    expect(asAdmin.body[String(formId)]).toEqual({ formID: formId, formTitle: "Contact" });
    expect(Object.keys(asAdmin.body)).toHaveLength(2);
    const token = await tokenFor([formId]);
    const asHolder = await get("/forms-views/forms", null, auth(token));
    expect(asHolder.body).toEqual([{ formID: formId, formTitle: "Contact" }]);
    expect((await get("/forms-views/forms", null)).status).toBe(401);
  });

  it("serves fields and submissions to a valid token for its form only", async () => {
    const token = await tokenFor([formId]);
    const fields = await get(`/forms-views/forms/${formId}/fields`, null, auth(token));
    expect(Object.values(fields.body).map((f: any) => f.type)).toEqual(["textbox", "email", "listcheckbox", "hidden"]);
    const page = await get(`/forms-views/forms/${formId}/submissions?perPage=2&page=1`, null, auth(token));
    expect(page.status).toBe(200);
    expect(page.body).toHaveLength(2);
    expect(page.body[0][String(fieldIds.email)]).toBe("carol@example.com");
    for (const perPage of [0, 101]) {
      const r = await get(`/forms-views/forms/${formId}/submissions?perPage=${perPage}`, null, auth(token));
      expect([r.status, r.body.code]).toEqual([400, "rest_invalid_param"]);
    }
    const other = await get(`/forms-views/forms/${otherFormId}/submissions`, null, auth(token));
    expect([other.status, other.body.code]).toEqual([403, "unauthorized_form_access"]);
  });

  it("refuses forged, tampered and expired tokens", async () => {
    const token = await tokenFor([formId]);
    const [h, p, s] = token.split(".");
    const widened = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, "base64url").toString()), formIds: [formId, otherFormId] })).toString("base64url");
    const forgedKey = await new SignJWT({ formIds: [otherFormId] }).setProtectedHeader({ alg: "HS256" }).setAudience("forms-views").setExpirationTime("15m").sign(crypto.randomBytes(32));
    for (const bad of [`${h}.${widened}.${s}`, forgedKey, await expiredToken([formId], 60), `${h}.${p}.${s.slice(0, -2)}AA`, "x".repeat(9000)]) {
      const r = await get(`/forms-views/forms/${formId}/submissions`, null, auth(bad));
      expect([r.status, r.body.code]).toEqual([401, "invalid_token"]);
    }
  });

  it("refreshes tokens expired up to 24 hours, for a form they name", async () => {
    const old = await expiredToken([formId], 3600);
    const refreshed = await post("/forms-views/token/refresh", { formID: formId }, null, auth(old));
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toMatchObject({ expiresIn: 900, formID: formId });
    expect((await get(`/forms-views/forms/${formId}/fields`, null, auth(refreshed.body.token))).status).toBe(200);
    const tooOld = await post("/forms-views/token/refresh", { formID: formId }, null, auth(await expiredToken([formId], 25 * 3600)));
    expect([tooOld.status, tooOld.body.code]).toEqual([401, "invalid_token"]);
    const noForm = await post("/forms-views/token/refresh", {}, null, auth(old));
    expect([noForm.status, noForm.body.code]).toEqual([400, "invalid_form_id"]);
    const otherForm = await post("/forms-views/token/refresh", { formID: otherFormId }, null, auth(old));
    expect([otherForm.status, otherForm.body.code]).toEqual([403, "unauthorized_form_access"]);
  });

  it("links a submission's email to the email gateway's EmailAddress through federation", async () => {
    const login = await system.request("POST", "/api/v2/login", { body: { username: "admin", password: GATEWAY_ADMIN_PASSWORD } });
    expect(login.status).toBe(200);
    const token = await tokenFor([formId]);
    const r = await system.graphql<{ formViewSubmissions: { email: { address: string; restricted: boolean } | null }[] }>(
      `query($f: Int!, $t: String) { formViewSubmissions(formId: $f, token: $t, perPage: 100) { email { address restricted } } }`,
      { f: formId, t: token }, { headers: { "X-ESG-Auth-Token": login.body.token } },
    );
    expect(r.errors).toBeUndefined();
    const addresses = r.data!.formViewSubmissions.map((s) => s.email?.address);
    expect(addresses).toContain("ann@example.com");
    expect(r.data!.formViewSubmissions.every((s) => s.email === null || s.email.restricted === false)).toBe(true);
  });

  it("limits anonymous requests to 60 a minute per route", async () => {
    const token = await tokenFor([otherFormId]);
    const statuses: number[] = [];
    for (let i = 0; i < 62; i++) statuses.push((await get(`/forms-views/forms/${otherFormId}/fields`, null, auth(token))).status);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(60);
    expect(statuses.at(-1)).toBe(429);
    expect((await get(`/forms-views/forms/${otherFormId}/fields`)).status).toBe(200);
  });
});

describe("forms/v2/crm/webhooks", () => {
  const body = (objectId: number, extra: Record<string, unknown> = {}) => JSON.stringify({ portalId: 62515, objectId, ...extra });
  const call = (raw: string, headers: Record<string, string>) =>
    system.request("POST", "/wp-json/forms/v2/crm/webhooks", { raw, headers: { "content-type": "application/json", ...headers } });
  const emailOf = async (id: number) => (await system.db.prisma.formSubmission.findUniqueOrThrow({ where: { id } })).email;

  it("matches HubSpot's documented signature vectors", () => {
    const v1Body = `[{"eventId":1,"subscriptionId":12345,"portalId":62515,"occurredAt":1564113600000,"subscriptionType":"contact.creation","attemptNumber":0,"objectId":123,"changeSource":"CRM","changeFlag":"NEW","appId":54321}]`;
    expect(expectedSignature(SECRET, { signature: "", method: "POST", uri: "", body: v1Body })).toBe("232db2615f3d666fe21a8ec971ac7b5402d33b9a925784df3ca654d05f4817de");
    expect(expectedSignature(SECRET, { signature: "", signatureVersion: "v2", method: "GET", uri: "https://www.example.com/webhook_uri", body: "" }))
      .toBe("eee2dddcc73c94d699f5e395f4b9d454a069a6855fbfa152e91e88823087200e");
    const now = 1_700_000_000_000;
    const v3 = { signature: "", signatureVersion: "v3", timestamp: String(now), method: "POST", uri: "https://site.test/hook?a=b%3Ac", body: "{}" };
    const good = crypto.createHmac("sha256", SECRET).update(`POSThttps://site.test/hook?a=b:c{}${now}`).digest("base64");
    expect(verifySignature(SECRET, { ...v3, signature: good }, now + 60_000)).toBe(true);
    expect(verifySignature(SECRET, { ...v3, signature: good }, now + 5 * 60_000 + 1)).toBe(false);
    expect(verifySignature(SECRET, { ...v3, signature: good.replace(/^./, (c) => (c === "A" ? "B" : "A")) }, now)).toBe(false);
    expect(verifySignature(SECRET, { ...v3, signatureVersion: "v9", signature: good }, now)).toBe(false);
  });

  it("refuses a forged signature before touching anything", async () => {
    const raw = body(501, { signature: "0".repeat(64) });
    const r = await call(raw, {});
    expect([r.status, r.body.code]).toEqual([401, "rest_forbidden"]);
    expect(await emailOf(submissions[0])).toBe("ann@example.com");
    const wrongSecret = crypto.createHash("sha256").update(`not-the-secret${raw}`).digest("hex");
    expect((await call(body(501, { signature: wrongSecret }), {})).status).toBe(401);
  });

  it("erases the email of the contact's submissions on a valid v1 signature", async () => {
    // v1 covers the body; the signature travels in the body, so it is computed over the body without it and sent as the header-equivalent param in the query.
    const raw = body(501);
    const signature = crypto.createHash("sha256").update(`${SECRET}${raw}`).digest("hex");
    const r = await system.request("POST", `/wp-json/forms/v2/crm/webhooks?signature=${signature}`, { raw, headers: { "content-type": "application/json", "X-HubSpot-Signature-Version": "v1" } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ entry_id: String(submissions[0]), field_id: String(fieldIds.email) });
    expect(await emailOf(submissions[0])).toBeNull();
    const values = (await system.db.prisma.formSubmission.findUniqueOrThrow({ where: { id: submissions[0] } })).values as Record<string, string>;
    expect(values[String(fieldIds.email)]).toBe("");
    expect(values[String(fieldIds.name)]).toBe("Ann");
  });

  it("accepts v2 (method and address) and v3 (HMAC with a fresh timestamp), refuses a stale or forged v3", async () => {
    const base = "http://example.test/wp-json/forms/v2/crm/webhooks";
    const raw = JSON.stringify({ portalId: 62515, objectId: 502 });
    const send = (query: string, headers: Record<string, string>) =>
      system.request("POST", `/wp-json/forms/v2/crm/webhooks?${query}`, { raw, headers: { "content-type": "application/json", ...headers } });
    // The signature covers the address without the signature parameter itself.
    const v2 = crypto.createHash("sha256").update(`${SECRET}POST${base}?trace=a${raw}`).digest("hex");
    const badV2 = await send(`trace=b&signature=${v2}`, { "X-HubSpot-Signature-Version": "v2" });
    expect([badV2.status, badV2.body.code]).toEqual([401, "rest_forbidden"]);
    expect(await emailOf(submissions[1])).toBe("robert@example.com");
    const goodV2 = await send(`trace=a&signature=${v2}`, { "X-HubSpot-Signature-Version": "v2" });
    expect(goodV2.status).toBe(200);
    expect(await emailOf(submissions[1])).toBeNull();

    const raw3 = JSON.stringify({ portalId: 62515, objectId: 503 });
    const v3 = (ts: string) => crypto.createHmac("sha256", SECRET).update(`POST${base}${raw3}${ts}`).digest("base64");
    const send3 = (ts: string, signature: string) => system.request("POST", `/wp-json/forms/v2/crm/webhooks?signature=${encodeURIComponent(signature)}`, {
      raw: raw3, headers: { "content-type": "application/json", "X-HubSpot-Signature-v3": signature, "X-HubSpot-Request-Timestamp": ts },
    });
    const stale = String(Date.now() - 6 * 60 * 1000);
    expect((await send3(stale, v3(stale))).status).toBe(401);
    const now = String(Date.now());
    expect((await send3(now, v3(String(Number(now) + 1)))).status).toBe(401);
    expect(await emailOf(submissions[2])).toBe("carol@example.com");
    const fresh = await send3(now, v3(now));
    expect(fresh.status).toBe(200);
    expect(fresh.body.entry_id).toBe(String(submissions[2]));
    expect(await emailOf(submissions[2])).toBeNull();
  });

  it("refuses every call while no client secret is configured (not connected)", async () => {
    const ctx = { identity: {}, config: { ...system.config, formsPlugins: { ...system.config.formsPlugins, hubspotClientSecret: undefined } }, prisma: system.db.prisma } as unknown as ExtensionsContext;
    const raw = JSON.stringify({ portalId: 62515, objectId: 501 });
    const signature = crypto.createHash("sha256").update(`${SECRET}${raw}`).digest("hex");
    await expect(receiveCrmWebhook(ctx, { portalId: 62515, objectId: 501, signature, method: "POST", uri: "http://example.test/", body: raw }))
      .rejects.toMatchObject({ extensions: { code: "unauthorized", status: 401 } });
  });

  it("answers 400 for bad ids and 204 for an unknown contact", async () => {
    const zero = await call(body(0, { signature: "x" }), {});
    expect([zero.status, zero.body.code]).toEqual([400, "rest_invalid_portalid"]);
    const raw = JSON.stringify({ portalId: 62515, objectId: 999 });
    const sig = crypto.createHash("sha256").update(`${SECRET}${raw}`).digest("hex");
    const unknown = await system.request("POST", `/wp-json/forms/v2/crm/webhooks?signature=${sig}`, { raw, headers: { "content-type": "application/json" } });
    expect(unknown.status).toBe(204);
  });
});

describe("forms-admin/v1", () => {
  it("runs the install only inside a manager's upgrade window, once", async () => {
    expect((await get("/forms-admin/v1/install")).status).toBe(403);
    await admin(`mutation { startFormsUpgrade }`);
    const ran = await get("/forms-admin/v1/install", null);
    expect([ran.status, ran.body]).toEqual([200, true]);
    expect((await get("/forms-admin/v1/install", null)).status).toBe(401);
  });

  it("installs an add-on only with the one-time connect token", async () => {
    const { createFormsConnectToken: token } = await admin<{ createFormsConnectToken: string }>(`mutation { createFormsConnectToken }`);
    const forged = await get(`/forms-admin/v1/install-addon?token=${"0".repeat(token.length)}&file_url=https://example.com/addon.zip`, null);
    expect(forged.status).toBe(401);
    const ok = await get(`/forms-admin/v1/install-addon?token=${token}&file_url=https://example.com/addon.zip`, null);
    expect(ok.body).toEqual({ success: true, message: "Your plugin has been activated." });
    expect((await get(`/forms-admin/v1/install-addon?token=${token}&file_url=https://example.com/addon.zip`, null)).status).toBe(401);
  });
});

describe("the index", () => {
  it("lists the forms, consent and downloads namespaces in the seed's order", async () => {
    const index = await get("/", null);
    const ns: string[] = index.body.namespaces;
    const order = ["forms-admin/v1", "consent/v1", "consent-feedback/v1", "downloads", "forms-submissions", "forms-views", "forms/v2"];
    expect(order.map((n) => ns.indexOf(n)).every((i, k, all) => i >= 0 && (k === 0 || i > all[k - 1]))).toBe(true);
    expect(index.body.routes["/forms-views/forms/(?P<id>[\\d]+)/submissions"].endpoints[0].args.perPage).toMatchObject({ minimum: 1, maximum: 100 });
    expect(index.body.routes["/forms/v2/crm/webhooks"].endpoints[0].args.per_page).toMatchObject({ default: 10, minimum: 1, maximum: 100 });
  });
});
