// forms/v2/crm/webhooks: HubSpot's privacy-deletion webhook (the Formidable HubSpot add-on's
// route). The route hands the subgraph everything the signature covers: the raw body, the method,
// the public address that was called (site address, REST root, path and query) and HubSpot's
// version and timestamp headers; the subgraph checks the signature before anything else. The
// signature is sent as the `signature` parameter (query or form/JSON body); what it covers is the
// raw body and the called address without that parameter, so it is sent in the query when the body
// is signed as JSON.
import qs from "qs";
import { ReceiveCrmWebhookDocument } from "../../../../../generated/graphql/operations.ts";
import { route, type RestRequest, type RestResult, type SiteRoute } from "../../route.ts";
import { collectionArgs } from "../../kit/args.ts";
import { op, opEndpoint } from "../../kit/crud.ts";

const header = (r: RestRequest, name: string): string | null => {
  const value = r.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
};

/**
 * The address that was called, as the signature covers it: the `signature` parameter itself is
 * left out of the query (a relay appends it, as Formidable's does: `?portalId=…&objectId=…&signature=…`).
 */
const calledUri = (r: RestRequest): string => {
  const { signature: _signature, ...rest } = r.query;
  const query = qs.stringify(rest, { encodeValuesOnly: true });
  return r.urls.rest(r.path) + (query ? `?${query}` : "");
};

export const crmWebhookRoutes: SiteRoute[] = [
  route("forms/v2", "/crm/webhooks", [
    opEndpoint({
      methods: ["POST"], args: {
        ...collectionArgs(),
        portalId: { description: "The HubSpot account id.", type: "integer", required: true },
        objectId: { description: "The HubSpot contact id.", type: "integer", required: true },
        signature: { description: "HubSpot's request signature.", type: "string", required: true },
      },
    }, op(ReceiveCrmWebhookDocument, (r) => {
      const v3 = header(r, "x-hubspot-signature-v3");
      return {
        input: {
          portalId: r.params.portalId as number, objectId: r.params.objectId as number, signature: String(r.params.signature),
          signatureVersion: v3 ? "v3" : header(r, "x-hubspot-signature-version"), timestamp: header(r, "x-hubspot-request-timestamp"),
          method: r.method, uri: calledUri(r), body: r.rawBody?.toString("utf8") ?? "",
        },
      };
    }, (d) => d.receiveCrmWebhook), (result): RestResult => ({ body: { entry_id: result.entryId, field_id: result.fieldId } })),
  ]),
];
