// Email addresses as the gateway handles them: normalised (trimmed, lower-cased) before they are
// stored or compared, refused above 254 characters (seed 001 §7, §8) and quoted truncated when a
// refusal is reported or logged.
import { MAX_ADDRESS_LENGTH } from "./licensing.ts";

export { MAX_ADDRESS_LENGTH };

/** How much of a refused address a message or log line quotes. */
export const QUOTED_ADDRESS_LENGTH = 64;

export const normaliseAddress = (address: string): string => address.trim().toLowerCase();

/** The start of an address, marked as cut when it was longer. */
export const truncatedAddress = (address: string): string =>
  address.length > QUOTED_ADDRESS_LENGTH ? `${address.slice(0, QUOTED_ADDRESS_LENGTH)}…` : address;

/** The domain part of an address ("" when there is none). */
export const domainOf = (address: string): string => {
  const at = address.lastIndexOf("@");
  return at < 0 ? "" : address.slice(at + 1);
};

/** One mailbox `local@domain` (no spaces, one @, a dotted or bracketed domain); not RFC 5322 in full. */
const MAILBOX = /^[^\s@"<>()\[\],;:]+@[^\s@"<>()\[\],;:]+$/;

/** Why an address is refused, or undefined when it is acceptable (after normalising). */
export function addressProblem(address: string): string | undefined {
  if (address.length > MAX_ADDRESS_LENGTH) {
    return `The address "${truncatedAddress(address)}" is longer than ${MAX_ADDRESS_LENGTH} characters.`;
  }
  if (!MAILBOX.test(address)) return `The address "${truncatedAddress(address)}" is not a valid email address.`;
  return undefined;
}

/** The address of a From header such as `"Anna" <anna@corp.test>` or a bare address, normalised. */
export function headerAddress(header: string): string {
  const angle = /<([^<>]*)>\s*$/.exec(header);
  return normaliseAddress(angle ? angle[1] : header);
}
