// consent/v1/fetch_results (CookieYes' scanner callback): public; the body carries
// scan_result_token and scan_result (JSON text). Answered as wp_send_json does: HTTP 200 with
// {"success": bool, "data": "…"}.
import { ReceiveConsentScanResultsDocument } from "../../../../../generated/graphql/operations.ts";
import { route, type RestResult, type SiteRoute } from "../../route.ts";
import { op, opEndpoint } from "../../kit/crud.ts";

const textOf = (v: unknown): string | null => (typeof v === "string" ? v : v === undefined || v === null ? null : JSON.stringify(v));

export const consentRoutes: SiteRoute[] = [
  route("consent/v1", "/fetch_results", [
    opEndpoint({ methods: ["POST"], args: {} },
      op(ReceiveConsentScanResultsDocument, (r) => ({ token: textOf(r.params.scan_result_token), results: textOf(r.params.scan_result) }), (d) => d.receiveConsentScanResults),
      (answer): RestResult => ({ body: { success: answer.success, data: answer.data } })),
  ]),
];
