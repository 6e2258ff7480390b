// downloads (WordPress Download Manager's wpdm namespace under a neutral name): public routes
// answered as wp_send_json does (HTTP 200 with a flag), except too many wrong passwords (429 with
// Retry-After) and an unknown package's view count (404).
import {
  CountDownloadViewDocument, SearchDownloadsDocument, ValidateDownloadCaptchaDocument, ValidateDownloadPasswordDocument,
} from "../../../../../generated/graphql/operations.ts";
import { route, type RestRequest, type RestResult, type SiteRoute } from "../../route.ts";
import { op, opEndpoint } from "../../kit/crud.ts";

const NS = "downloads";
const idOf = (v: unknown): number | null => {
  const n = typeof v === "number" ? v : typeof v === "string" && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n > 0 && n <= 2 ** 31 - 1 ? n : null;
};
const textOf = (v: unknown): string | null => (typeof v === "string" ? v : typeof v === "number" ? String(v) : null);
const searchTerm = (r: RestRequest): string => textOf(r.params.search)?.trim() ?? "";

export const downloadRoutes: SiteRoute[] = [
  route(NS, "/validate-captcha", [
    opEndpoint({ methods: ["POST"], args: {} },
      op(ValidateDownloadCaptchaDocument, (r) => ({ packageId: idOf(r.params.__wpdm_ID), token: textOf(r.params.reCaptchaVerify) }), (d) => d.validateDownloadCaptcha),
      (a): RestResult => ({ body: a.downloadUrl ? { downloadurl: a.downloadUrl } : { error: a.error } })),
  ]),
  route(NS, "/validate-password", [
    opEndpoint({ methods: ["POST"], args: {} },
      op(ValidateDownloadPasswordDocument, (r) => ({ packageId: idOf(r.params.__wpdm_ID), password: textOf(r.params.password) }), (d) => d.validateDownloadPassword),
      (a, r): RestResult => {
        if (a.success) return { body: { success: true, downloadurl: a.downloadUrl } };
        if (a.retryAfter) return { status: 429, body: { success: false, message: a.message }, headers: { "Retry-After": String(a.retryAfter) } };
        // WPDM words a request without id or password with `msg`, the other refusals with `message`.
        if (!idOf(r.params.__wpdm_ID) || !textOf(r.params.password)) return { body: { msg: "Invalid request!", success: false } };
        return { body: { success: false, message: a.message } };
      }),
  ]),
  route(NS, "/search", [
    opEndpoint({ methods: ["GET"], args: {} },
      op(SearchDownloadsDocument, (r) => ({ search: searchTerm(r), page: idOf(r.params.page) ?? 1, perPage: Math.min(idOf(r.params.per_page) ?? 10, 100) }), (d) => d.searchDownloads),
      (result, r): RestResult => {
        // No term: WPDM answers an empty (null) body.
        if (!searchTerm(r)) return { body: null };
        return { body: { total: result.total, packages: result.packages.map((p) => ({ ID: p.id, post_title: p.title, post_content: p.content })), q: r.query } };
      }),
  ]),
  route(NS, "/view-count", [
    opEndpoint({ methods: ["POST"], args: {} },
      op(CountDownloadViewDocument, (r) => ({ packageId: idOf(r.params.id) ?? 0 }), (d) => d.countDownloadView),
      (views): RestResult => ({ body: { views } })),
  ]),
];
