// consent-feedback/v1/uninstall-feedback (CookieYes' cky/v1): managers only; reason_id,
// reason_text, reason_info from the body; answered as wp_send_json: {"success": bool}.
import { SubmitConsentUninstallFeedbackDocument } from "../../../../../generated/graphql/operations.ts";
import { route, type RestResult, type SiteRoute } from "../../route.ts";
import { op, opEndpoint } from "../../kit/crud.ts";
import { canManageForms } from "../forms-submissions/submissions.ts";

const textOf = (v: unknown): string | null => (typeof v === "string" ? v : typeof v === "number" ? String(v) : null);

export const consentFeedbackRoutes: SiteRoute[] = [
  route("consent-feedback/v1", "/uninstall-feedback", [
    opEndpoint({ methods: ["POST"], args: {}, allowed: canManageForms },
      op(SubmitConsentUninstallFeedbackDocument, (r) => ({ reasonId: textOf(r.params.reason_id), reasonText: textOf(r.params.reason_text), reasonInfo: textOf(r.params.reason_info) }),
        (d) => d.submitConsentUninstallFeedback),
      (answer): RestResult => ({ body: { success: answer.success } })),
  ]),
];
