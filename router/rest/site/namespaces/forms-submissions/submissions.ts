// forms-submissions (Ninja Forms' ninja-forms-submissions under a neutral name): the admin
// submissions UI. Every route needs manage_options (the extensions subgraph decides); bodies and
// odd outputs are Ninja Forms' own: "ok" strings, a JSON string (double-encoded) for the settings,
// `{<formId>: <csv>}` for exports, `true` or the sequence number from the email action.
import {
  DeleteFormsDownloadFileDocument, DownloadAllFormSubmissionsDocument, ExportFormSubmissionsDocument, FormsPermissionsDocument, HandleFormSubmissionExtraDocument,
  ReadFormSubmissionSettingsDocument, ReadFormSubmissionsDocument, RestoreFormSubmissionsDocument, SendFormSubmissionEmailDocument, SetFormSubmissionSettingDocument,
  TrashFormSubmissionsDocument, UpdateFormSubmissionDocument, type FormFieldFieldsFragment, type FormSubmissionFieldsFragment,
} from "../../../../../generated/graphql/operations.ts";
import { route, type ArgSchema, type RestRequest, type RestResult, type SiteRoute } from "../../route.ts";
import { wpError } from "../../errors.ts";
import { op, opEndpoint, type EndpointOptions, type Op } from "../../kit/crud.ts";
import { allowedBy } from "../../kit/operation.ts";
import {
  fieldValuesOf, formIdsArg, formIdsOf, idOf, singleSubmissionArg, singleSubmissionOf, submissionIdsOf, submissionsArg,
} from "./ninja.ts";

const NS = "forms-submissions";

/** Ninja Forms' capability filters all default to manage_options; the extensions subgraph answers. */
export const canManageForms = allowedBy(FormsPermissionsDocument, (d) => d.formsViewerCan.manageSubmissions);

/** A route answering 200 with `respond`'s body (Ninja Forms returns plain values through rest_ensure_response). */
export const plain = <Out>(e: Omit<EndpointOptions, "allowed">, operation: Op<Out>, respond: (out: Out, r: RestRequest) => unknown, allowed = canManageForms) =>
  opEndpoint({ ...e, allowed }, operation, (out, r): RestResult => ({ status: 200, body: respond(out, r) }));

const unix = (value: unknown): string | null => {
  const n = Number(value);
  return value !== undefined && value !== null && value !== "" && Number.isFinite(n) && n > 0 ? new Date(n * 1000).toISOString() : null;
};

/** A stored submission as Ninja Forms' SingleSubmission. */
function singleSubmission(s: FormSubmissionFieldsFragment, columns: readonly FormFieldFieldsFragment[]) {
  return {
    submissionRecordId: s.id, timestamp: s.submittedAt, formId: s.formId, dataSource: "cpt", status: s.status === "TRASH" ? "trash" : "publish",
    submissionFieldCollection: Object.fromEntries(columns.map((c) => [c.key, { id: c.id, key: c.key, label: c.label, type: c.type, value: s.values.find((v) => v.fieldId === c.id)?.value ?? "" }])),
    extraValues: JSON.parse(s.extra) as unknown, submissionHandlers: ["csv", "json"], seq_num: s.seqNum, submitterId: s.submitterId ?? 0,
  };
}

const getArgs: Record<string, ArgSchema> = {
  form_ids: { ...formIdsArg("The form whose submissions are read (the first id is used).", true), type: "array" },
  type: { description: "columns (the form's field definitions) or data (the submissions).", type: "string", enum: ["columns", "data"] },
  page_size: { description: "Submissions per page.", type: "integer", default: 10, minimum: 1, maximum: 1000 },
  current_page: { description: "Page number.", type: "integer", default: 1, minimum: 1 },
  start_date: { description: "Only submissions from this unix time (0: from 1982).", type: "integer", minimum: 0 },
  end_date: { description: "Only submissions up to this unix time (0: until a day from now).", type: "integer", minimum: 0 },
  search_term: { description: "Only submissions with a value containing this text.", type: "string" },
  status: { description: "trash for the bin, anything else for listed submissions.", type: "string" },
};

export const formsSubmissionsRoutes: SiteRoute[] = [
  route(NS, "/submissions/get", [
    opEndpoint({ methods: ["GET"], args: getArgs, allowed: canManageForms },
      op(ReadFormSubmissionsDocument, (r) => ({
        filter: {
          formId: formIdsOf(r.params.form_ids)[0], page: r.params.current_page as number, pageSize: r.params.page_size as number,
          after: unix(r.params.start_date), before: unix(r.params.end_date), search: (r.params.search_term as string | undefined) || null,
          status: r.params.status === "trash" ? "TRASH" as const : "ACTIVE" as const,
        },
      }), (d) => d.formSubmissions),
      (page, r): RestResult => {
        if (r.params.type === "columns") return { body: page.columns.map((c) => ({ id: c.id, key: c.key, label: c.label, type: c.type, order: c.order })) };
        // Ninja Forms answers a WP_Error without a status here (500 in WordPress); it is the client's mistake: 400.
        if (r.params.type !== "data") return wpError("malformed_request", "This request is missing data", 400);
        return { body: { data: Object.fromEntries(page.nodes.map((s) => [String(s.id), singleSubmission(s, page.columns)])), count: page.totalCount } };
      }),
  ]),
  route(NS, "/submissions/delete", [
    plain({ methods: ["POST"], args: { submissions: submissionsArg("The submissions to move to the bin (ids or SingleSubmission objects).") } },
      op(TrashFormSubmissionsDocument, (r) => ({ ids: submissionIdsOf(r.params.submissions)! }), (d) => d.trashFormSubmissions), () => "ok"),
  ]),
  route(NS, "/submissions/update", [
    plain({ methods: ["POST"], args: { singleSubmission: singleSubmissionArg("The changed submission (a JSON-encoded SingleSubmission).") } },
      op(UpdateFormSubmissionDocument, (r) => {
        const single = singleSubmissionOf(r.params.singleSubmission)!;
        const status = single.status === "trash" ? "TRASH" as const : single.status === undefined ? undefined : "ACTIVE" as const;
        return {
          input: {
            id: idOf(single.submissionRecordId)!, values: fieldValuesOf(single),
            ...(single.extraValues !== undefined ? { extra: JSON.stringify(single.extraValues ?? {}) } : {}), ...(status ? { status } : {}),
          },
        };
      }, (d) => d.updateFormSubmission), () => "ok"),
  ]),
  route(NS, "/submissions/restore", [
    plain({
      methods: ["POST"], args: {
        restore: { description: "true to restore from the bin, false to bin.", type: "boolean", required: true },
        submissions: submissionsArg("The submissions (ids or SingleSubmission objects)."),
      },
    }, op(RestoreFormSubmissionsDocument, (r) => ({ ids: submissionIdsOf(r.params.submissions)!, restore: r.params.restore as boolean }), (d) => d.restoreFormSubmissions), () => "ok"),
  ]),
  route(NS, "/submissions/handle-extra", [
    plain({
      methods: ["POST"], args: {
        singleSubmission: singleSubmissionArg("The submission (a JSON-encoded SingleSubmission)."),
        handleExtra: { description: "The submission handler: csv or json.", type: "string", required: true },
      },
    }, op(HandleFormSubmissionExtraDocument, (r) => ({ id: idOf(singleSubmissionOf(r.params.singleSubmission)!.submissionRecordId)!, handler: String(r.params.handleExtra) }),
      (d) => d.handleFormSubmissionExtra), (result) => result),
  ]),
  route(NS, "/export", [
    plain({
      methods: ["POST"], args: {
        form_ids: { ...formIdsArg("Forms to export (\"1,2\" or a list)."), type: "array" },
        start_date: { description: "Start of the range: a date a date-string parser understands (\"2024-01-05\", \"last monday\").", type: "string" },
        end_date: { description: "End of the range, the same way.", type: "string" },
        singleSubmission: singleSubmissionArg("One submission to export (JSON-encoded SingleSubmission).", false),
        submissions: submissionsArg("Submission ids to export (with form_ids).", false),
      },
    }, op(ExportFormSubmissionsDocument, (r) => ({
      input: {
        formIds: formIdsOf(r.params.form_ids),
        startDate: (r.params.start_date as string | undefined) || null,
        endDate: (r.params.end_date as string | undefined) || null,
        submissionId: r.params.singleSubmission !== undefined && r.params.singleSubmission !== null ? idOf(singleSubmissionOf(r.params.singleSubmission)?.submissionRecordId) : null,
        submissionIds: r.params.submissions ? submissionIdsOf(r.params.submissions) : null,
      },
    }), (d) => d.exportFormSubmissions), (exports) => Object.fromEntries(exports.map((e) => [String(e.formId), e.csv]))),
  ]),
  route(NS, "/download-all", [
    plain({ methods: ["POST"], args: { form_ids: { ...formIdsArg("The form (the first id is used)."), type: "array" } } },
      op(DownloadAllFormSubmissionsDocument, (r) => ({ formIds: formIdsOf(r.params.form_ids) }), (d) => d.downloadAllFormSubmissions),
      (file) => ({ formId: String(file.formId), downloadUrl: file.downloadUrl, filePath: file.filePath })),
  ]),
  route(NS, "/delete-download-file", [
    plain({ methods: ["POST"], args: { file_path: { description: "The export file to delete (directly inside the export directory).", type: "string", required: true } } },
      op(DeleteFormsDownloadFileDocument, (r) => ({ filePath: String(r.params.file_path) }), (d) => d.deleteFormsDownloadFile), (result) => ({ result })),
  ]),
  route(NS, "/set-submissions-settings", [
    plain({
      methods: ["POST"], args: {
        settingName: { description: "The setting's name.", type: "string", required: true },
        data: { description: "The setting's value.", type: "object" },
        formID: { description: "The form the setting is for.", type: "string" },
      },
    }, op(SetFormSubmissionSettingDocument, (r) => ({
      settingName: String(r.params.settingName), data: JSON.stringify(r.params.data ?? {}), formId: r.params.formID === undefined || r.params.formID === null ? "" : String(r.params.formID),
    }), (d) => d.setFormSubmissionSetting), (result) => JSON.stringify(result)),
  ]),
  route(NS, "/get-submissions-settings", [
    plain({ methods: ["GET"], args: {} }, op(ReadFormSubmissionSettingsDocument, () => ({}), (d) => d.formSubmissionSettings), (json) => json),
  ]),
  route(NS, "/email-action", [
    plain({
      methods: ["POST"], args: {
        submission: { description: "The submission's id.", type: "integer", required: true, minimum: 1 },
        action_settings: { description: "The email action's settings (to, email_subject, email_message, from_name, from_address, reply_to, cc, bcc).", type: "object", required: true },
      },
    }, op(SendFormSubmissionEmailDocument, (r) => ({ submissionId: r.params.submission as number, actionSettings: JSON.stringify(r.params.action_settings ?? {}) }),
      (d) => d.sendFormSubmissionEmail), (result) => (result.sent ? true : result.seqNum)),
  ]),
];

