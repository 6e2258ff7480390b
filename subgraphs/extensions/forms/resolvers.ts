// Thin resolvers of the forms area: arguments in, domain functions out.
import type { Resolvers } from "../../../generated/graphql/extensions-resolvers.ts";
import { receiveCrmWebhook } from "./crm-webhook.ts";
import { deleteDownloadFile, downloadAll, exportSubmissions } from "./export.ts";
import { createForm, fieldsOf, listForms, readForm, submitForm } from "./forms.ts";
import { createConnectToken, installAddon, runInstall, startUpgrade } from "./install.ts";
import { canManageForms } from "./permissions.ts";
import {
  handleExtra, readSubmissionSettings, restoreSubmissions, sendSubmissionEmail, setSubmissionSetting, submissionsPage, trashSubmissions, updateSubmission,
} from "./submissions.ts";
import { createViewToken, refreshViewToken, viewFields, viewForms, viewSubmissions } from "./views.ts";

export const formResolvers: Resolvers = {
  Query: {
    forms: (_, __, ctx) => listForms(ctx),
    form: (_, args, ctx) => readForm(ctx, args.id),
    formSubmissions: (_, args, ctx) => submissionsPage(ctx, args.filter),
    formSubmissionSettings: (_, __, ctx) => readSubmissionSettings(ctx),
    formViewForms: (_, args, ctx) => viewForms(ctx, args.token),
    formViewFields: (_, args, ctx) => viewFields(ctx, args.formId, args.token),
    formViewSubmissions: (_, args, ctx) => viewSubmissions(ctx, args.formId, args.token, args.page ?? 1, args.perPage ?? 10),
    formsViewerCan: (_, __, ctx) => ({ manageSubmissions: canManageForms(ctx.identity) }),
  },
  Form: {
    fields: (form, _, ctx) => fieldsOf(ctx, form.id),
  },
  Mutation: {
    createForm: (_, args, ctx) => createForm(ctx, args.input),
    submitForm: (_, args, ctx) => submitForm(ctx, args.formId, args.values, args.crmContactId),
    trashFormSubmissions: (_, args, ctx) => trashSubmissions(ctx, args.ids),
    restoreFormSubmissions: (_, args, ctx) => restoreSubmissions(ctx, args.ids, args.restore),
    updateFormSubmission: (_, args, ctx) => updateSubmission(ctx, args.input),
    handleFormSubmissionExtra: (_, args, ctx) => handleExtra(ctx, args.id, args.handler),
    exportFormSubmissions: (_, args, ctx) => exportSubmissions(ctx, args.input),
    downloadAllFormSubmissions: (_, args, ctx) => downloadAll(ctx, args.formIds),
    deleteFormsDownloadFile: (_, args, ctx) => deleteDownloadFile(ctx, args.filePath),
    setFormSubmissionSetting: (_, args, ctx) => setSubmissionSetting(ctx, args.settingName, args.data, args.formId),
    sendFormSubmissionEmail: (_, args, ctx) => sendSubmissionEmail(ctx, args.submissionId, args.actionSettings),
    createFormViewToken: (_, args, ctx) => createViewToken(ctx, args.formIds),
    refreshFormViewToken: (_, args, ctx) => refreshViewToken(ctx, args.token, args.formId),
    receiveCrmWebhook: (_, args, ctx) => receiveCrmWebhook(ctx, args.input),
    startFormsUpgrade: (_, __, ctx) => startUpgrade(ctx),
    installForms: (_, __, ctx) => runInstall(ctx),
    createFormsConnectToken: (_, __, ctx) => createConnectToken(ctx),
    installFormsAddon: (_, args, ctx) => installAddon(ctx, args.token, args.fileUrl),
  },
};
