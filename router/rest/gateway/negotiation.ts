// Content negotiation by Accept, as API Platform does it for /api/v2. HAL is listed first, so a
// client that sends no Accept (or */*) gets HAL: the public ESG client (Splunk connector) sends
// none and reads `_embedded.item` and `_links.next`, which only HAL has.
import type { Format } from "./route.ts";

/** Server preference order: breaks ties between equally acceptable formats. */
const FORMATS: { format: Format; type: string }[] = [
  { format: "hal", type: "application/hal+json" },
  { format: "jsonld", type: "application/ld+json" },
  { format: "json", type: "application/json" },
];

export const MEDIA_TYPES: Record<Format, string> = {
  hal: "application/hal+json; charset=utf-8",
  jsonld: "application/ld+json; charset=utf-8",
  json: "application/json; charset=utf-8",
};

interface Range { type: string; subtype: string; q: number }

function parseAccept(header: string): Range[] {
  return header.split(",").flatMap((part) => {
    const [mediaRange, ...params] = part.trim().split(";");
    const [type, subtype] = mediaRange.trim().toLowerCase().split("/");
    if (!type || !subtype) return [];
    const qParam = params.map((p) => p.trim().split("=")).find(([k]) => k.toLowerCase() === "q");
    const q = qParam ? Number(qParam[1]) : 1;
    return Number.isFinite(q) ? [{ type, subtype, q: Math.min(Math.max(q, 0), 1) }] : [];
  });
}

/** The q a media type gets from the most specific range that matches it (RFC 9110 §12.5.1). */
function quality(ranges: Range[], mediaType: string): number {
  const [type, subtype] = mediaType.split("/");
  let best: { specificity: number; q: number } | undefined;
  for (const r of ranges) {
    const specificity = r.type === type && r.subtype === subtype ? 2 : r.type === type && r.subtype === "*" ? 1 : r.type === "*" && r.subtype === "*" ? 0 : -1;
    if (specificity >= 0 && (!best || specificity > best.specificity)) best = { specificity, q: r.q };
  }
  return best?.q ?? 0;
}

/** The format to answer in, or undefined when Accept rules out all of them (406). */
export function negotiate(accept: string | undefined): Format | undefined {
  if (!accept || !accept.trim()) return "hal";
  const ranges = parseAccept(accept);
  let chosen: { format: Format; q: number } | undefined;
  for (const { format, type } of FORMATS) {
    const q = quality(ranges, type);
    if (q > 0 && (!chosen || q > chosen.q)) chosen = { format, q };
  }
  return chosen?.format;
}
