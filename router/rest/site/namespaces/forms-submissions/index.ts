// The forms, consent and downloads namespaces (seed 000 §4.6, §4.7): forms-admin/v1, forms/v2,
// forms-submissions, forms-views, consent/v1, consent-feedback/v1, downloads. One list, so the
// route table adds them with one entry.
import type { SiteRoute } from "../../route.ts";
import { consentFeedbackRoutes } from "../consent-feedback-v1/feedback.ts";
import { consentRoutes } from "../consent-v1/results.ts";
import { downloadRoutes } from "../downloads/downloads.ts";
import { formsAdminRoutes } from "../forms-admin-v1/install.ts";
import { crmWebhookRoutes } from "../forms-v2/crm-webhooks.ts";
import { formsViewsRoutes } from "../forms-views/views.ts";
import { formsSubmissionsRoutes } from "./submissions.ts";

export const formsPluginRoutes: SiteRoute[] = [
  ...formsAdminRoutes, ...consentRoutes, ...consentFeedbackRoutes, ...downloadRoutes, ...formsSubmissionsRoutes, ...formsViewsRoutes, ...crmWebhookRoutes,
];
