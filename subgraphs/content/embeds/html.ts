// The few HTML rules oEmbed needs, as WordPress applies them: escaping for attributes and text
// (esc_attr / esc_html: existing entities are not encoded twice), an allow-list filter in the
// manner of wp_kses (disallowed tags dropped, their text kept; disallowed attributes dropped;
// link and frame addresses limited to safe protocols), and reading a page's <link> tags.
import { Parser } from "htmlparser2";

const ENTITY = /^&(?:[A-Za-z][A-Za-z0-9]*|#\d+|#x[0-9A-Fa-f]+);/;

/** Encodes & < > " ' like WordPress's _wp_specialchars with double-encoding off. */
export function escHtml(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "&") {
      const m = ENTITY.exec(text.slice(i, i + 40));
      if (m) { out += m[0]; i += m[0].length - 1; } else out += "&amp;";
    } else if (c === "<") out += "&lt;";
    else if (c === ">") out += "&gt;";
    else if (c === '"') out += "&quot;";
    else if (c === "'") out += "&#039;";
    else out += c;
  }
  return out;
}

/** esc_attr: the same encoding as esc_html. */
export const escAttr = escHtml;

const SAFE_PROTOCOLS = new Set(["http:", "https:", "ftp:", "ftps:", "mailto:", "news:", "irc:", "irc6:", "ircs:", "gopher:", "nntp:", "feed:", "telnet:", "mms:", "rtsp:", "sms:", "svn:", "tel:", "fax:", "xmpp:", "webcal:", "urn:"]);

/** esc_url for display: an address with a safe protocol (or a relative one), `&` encoded; anything else empty. */
export function escUrl(url: string): string {
  const trimmed = url.trim().replace(/ /g, "%20");
  if (!trimmed) return "";
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(trimmed);
  if (scheme && !SAFE_PROTOCOLS.has(`${scheme[1].toLowerCase()}:`)) return "";
  return trimmed.replace(/&(?!#?\w+;)/g, "&#038;").replace(/'/g, "&#039;").replace(/"/g, "&quot;").replace(/[<>]/g, "");
}

/** Allowed attributes by tag, as wp_kses's allowed-HTML arrays. */
export type AllowedHtml = Record<string, readonly string[]>;

const URL_ATTRIBUTES = new Set(["href", "src"]);

/**
 * Keeps only allowed tags and attributes (wp_kses): other tags are removed with their text kept,
 * attribute values are re-escaped, and href/src keep only safe protocols.
 */
export function kses(html: string, allowed: AllowedHtml): string {
  let out = "";
  const parser = new Parser({
    onopentag(name, attributes) {
      const allowedAttributes = allowed[name];
      if (!allowedAttributes) return;
      let tag = `<${name}`;
      for (const [attribute, value] of Object.entries(attributes)) {
        const key = attribute.toLowerCase();
        if (!allowedAttributes.includes(key)) continue;
        if (URL_ATTRIBUTES.has(key)) {
          const scheme = /^\s*([A-Za-z][A-Za-z0-9+.-]*):/.exec(value);
          if (scheme && !SAFE_PROTOCOLS.has(`${scheme[1].toLowerCase()}:`)) continue;
        }
        tag += ` ${key}="${escAttr(value)}"`;
      }
      out += `${tag}>`;
    },
    ontext(text) {
      out += text.replace(/</g, "&lt;").replace(/>/g, "&gt;");
    },
    onclosetag(name) {
      if (allowed[name]) out += `</${name}>`;
    },
  }, { decodeEntities: false, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true });
  parser.write(html);
  parser.end();
  return out;
}

/** The attributes of every <link> tag in `html` (values with entities decoded). */
export function linkTags(html: string): Record<string, string>[] {
  const links: Record<string, string>[] = [];
  const parser = new Parser({
    onopentag(name, attributes) {
      if (name === "link") links.push(attributes);
    },
  }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  parser.write(html);
  parser.end();
  return links;
}
