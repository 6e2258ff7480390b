// WordPress's cleaners for names: sanitize_key (keys, object kinds, link targets) and
// sanitize_html_class (class and xfn names), beside the value rules in php-values.ts.
// The REST layer applies them as argument sanitizers; the content subgraph again on write.
import { isPhpArray, isScalar, parseList, phpString } from "./php-values.ts";

/** `sanitize_key`: lower case, then only a-z, 0-9, `_` and `-`. */
export const sanitizeKey = (key: unknown): string => (isScalar(key) ? phpString(key).toLowerCase().replace(/[^a-z0-9_-]/g, "") : "");

/** `sanitize_html_class`: percent-encoded octets dropped, then only A-Z, a-z, 0-9, `_` and `-`. */
export const sanitizeHtmlClass = (name: unknown): string => phpString(name).replace(/%[a-fA-F0-9]{2}/g, "").replace(/[^A-Za-z0-9_-]/g, "");

/** `array_map('sanitize_html_class', wp_parse_list($value))`: a list, or a comma/space separated string. */
export function sanitizeClassList(value: unknown): string[] {
  const list = isPhpArray(value) ? Object.values(value).filter(isScalar) : isScalar(value) ? parseList(value) : [];
  return list.map(sanitizeHtmlClass);
}
