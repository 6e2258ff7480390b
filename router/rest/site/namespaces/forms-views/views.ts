// forms-views (Ninja Forms' ninja-forms-views under a neutral name): the public submissions table.
// Managers pass; anyone else sends the views token in X-NinjaFormsViews-Auth (the extensions
// subgraph checks signature, expiry and form scope, and counts requests per client). Outputs are
// Ninja Forms': the forms object keyed by id for managers (a list for token holders), fields keyed
// by id, submissions as `{<fieldId>: value}`, and the refreshed token.
import {
  ReadFormViewFieldsDocument, ReadFormViewFormsDocument, ReadFormViewSubmissionsDocument, RefreshFormViewTokenDocument,
} from "../../../../../generated/graphql/operations.ts";
import { route, type RestRequest, type RestResult, type SiteRoute } from "../../route.ts";
import { op, opEndpoint } from "../../kit/crud.ts";
import { canManageForms } from "../forms-submissions/submissions.ts";

const NS = "forms-views";
export const VIEWS_TOKEN_HEADER = "x-ninjaformsviews-auth";

/** The views token of a request: the header, else a `token` parameter. */
const tokenOf = (r: RestRequest): string | null => {
  const header = r.headers[VIEWS_TOKEN_HEADER];
  const value = Array.isArray(header) ? header[0] : header;
  if (value) return value;
  return typeof r.params.token === "string" && r.params.token ? r.params.token : null;
};

const FORM_ID = "(?P<id>[\\d]+)";
const idArg = { description: "The form's id.", type: "integer" as const, required: true };

export const formsViewsRoutes: SiteRoute[] = [
  route(NS, "/forms", [
    opEndpoint({ methods: ["GET"], args: {} }, op(ReadFormViewFormsDocument, (r) => ({ token: tokenOf(r) }), (d) => d.formViewForms),
      async (forms, r): Promise<RestResult> => {
        const entries = forms.map((f) => ({ formID: f.id, formTitle: f.title }));
        // Managers get the object keyed by form id; token holders the token's forms as a list.
        if (await r.may(canManageForms)) return { body: entries.length ? Object.fromEntries(entries.map((e) => [String(e.formID), e])) : {} };
        return { body: entries };
      }),
  ]),
  route(NS, `/forms/${FORM_ID}/fields`, [
    opEndpoint({ methods: ["GET"], args: { id: idArg } }, op(ReadFormViewFieldsDocument, (r) => ({ formId: r.params.id as number, token: tokenOf(r) }), (d) => d.formViewFields),
      (fields): RestResult => ({ body: fields.length ? Object.fromEntries(fields.map((f) => [String(f.id), { id: f.id, label: f.label, type: f.type }])) : {} })),
  ]),
  route(NS, `/forms/${FORM_ID}/submissions`, [
    opEndpoint({
      methods: ["GET"], args: {
        id: idArg,
        perPage: { description: "Submissions per page.", type: "integer", minimum: 1, maximum: 100 },
        page: { description: "Page number.", type: "integer", default: 1, minimum: 1 },
      },
    }, op(ReadFormViewSubmissionsDocument, (r) => ({ formId: r.params.id as number, token: tokenOf(r), page: r.params.page as number, perPage: (r.params.perPage as number | undefined) ?? 10 }),
      (d) => d.formViewSubmissions),
    (rows): RestResult => ({ body: rows.map((s) => Object.fromEntries(s.values.map((v) => [String(v.fieldId), v.value]))) })),
  ]),
  route(NS, "/token/refresh", [
    opEndpoint({ methods: ["POST"], args: {} }, op(RefreshFormViewTokenDocument, (r) => ({ token: tokenOf(r) ?? "", formId: Number(r.params.formID ?? r.params.formId ?? 0) || 0 }),
      (d) => d.refreshFormViewToken),
    (t): RestResult => ({ body: { token: t.token, publicKey: t.publicKey, expiresIn: t.expiresIn, formID: t.formId } })),
  ]),
];
