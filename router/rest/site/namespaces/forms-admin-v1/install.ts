// forms-admin/v1 (Formidable's frm-admin/v1): `install` runs the forms database install while a
// manager's upgrade window is open (else rest_forbidden); `install-addon` takes `token` (the
// one-time connect token) and `file_url` from the request, as Formidable reads them.
import { InstallFormsAddonDocument, InstallFormsDocument } from "../../../../../generated/graphql/operations.ts";
import { route, type RestResult, type SiteRoute } from "../../route.ts";
import { op, opEndpoint } from "../../kit/crud.ts";

export const formsAdminRoutes: SiteRoute[] = [
  route("forms-admin/v1", "/install", [
    opEndpoint({ methods: ["GET"], args: {} }, op(InstallFormsDocument, () => ({}), (d) => d.installForms), (done): RestResult => ({ body: done })),
  ]),
  route("forms-admin/v1", "/install-addon", [
    opEndpoint({ methods: ["GET"], args: {} },
      op(InstallFormsAddonDocument, (r) => ({ token: typeof r.params.token === "string" ? r.params.token : "", fileUrl: typeof r.params.file_url === "string" ? r.params.file_url : "" }),
        (d) => d.installFormsAddon),
      (result): RestResult => ({ body: result })),
  ]),
];
