// Slow hashes for passwords people choose: scrypt from node:crypto (memory-hard, no native
// dependency). The parameters travel with each hash so they can be raised later.
import crypto from "node:crypto";
import { promisify } from "node:util";

const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions) => Promise<Buffer>;

// OWASP's scrypt floor (N=2^17, r=8, p=1) needs 128 MiB per hash; 2^15 keeps logins fast in
// tests and on small appliances while staying well above the Node default.
const PARAMS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, KEY_LENGTH, { ...PARAMS, maxmem: 256 * PARAMS.N * PARAMS.r });
  return ["scrypt", PARAMS.N, PARAMS.r, PARAMS.p, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const N = Number(n), R = Number(r), P = Number(p);
  const expected = Buffer.from(hash, "base64url");
  const actual = await scrypt(password, Buffer.from(salt, "base64url"), expected.length, { N, r: R, p: P, maxmem: 256 * N * R });
  return crypto.timingSafeEqual(actual, expected);
}

let decoy: Promise<string> | undefined;
/** A hash of nothing in particular, checked when the user does not exist so that timing does not reveal usernames. */
export const decoyHash = (): Promise<string> => (decoy ??= hashPassword(crypto.randomBytes(16).toString("hex")));

/** A password for the first administrator when none is configured (24 URL-safe characters). */
export const generatePassword = (): string => crypto.randomBytes(18).toString("base64url");
