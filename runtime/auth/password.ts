// Passwords (docs/language.md §6, Passwords): stored as a PHC string of scrypt from
// node:crypto, `$scrypt$ln=15,r=8,p=1$<salt>$<hash>` (salt and hash in unpadded base64, as
// the PHC string format writes them). scrypt rather than argon2id: it ships with Node, so
// no native package and no binary download; N = 2^15, r = 8 costs about 90 ms and 32 MiB
// here, strong enough without making a hash a denial-of-service lever.
//
// Verifying parses the stored parameters, so a later change of the cost keeps old hashes
// valid. A missing stored value (an unknown user) still costs one full hash, and every
// failure reads the same, so neither time nor answer tells the two cases apart.

import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

const LOG_N = 15;
const R = 8;
const P = 1;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
/** scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) is exactly that, so allow twice. */
const MAX_MEM = 256 * N_of(LOG_N) * R;
/** Parameters a stored hash may carry: enough range for stronger settings, not a denial of service. */
const MAX_LOG_N = 20;

const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

function N_of(logN: number): number {
  return 2 ** logN;
}

function derive(password: string, salt: Buffer, logN: number, r: number, p: number, length: number): Promise<Buffer> {
  const options: ScryptOptions = { N: N_of(logN), r, p, maxmem: Math.max(MAX_MEM, 256 * N_of(logN) * r) };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFC"), salt, length, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

const b64 = (b: Buffer): string => b.toString("base64").replace(/=+$/, "");

/** A new PHC string for `password`, with a fresh random salt: the same password never hashes the same twice. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, LOG_N, R, P, HASH_BYTES);
  return `$scrypt$ln=${LOG_N},r=${R},p=${P}$${b64(salt)}$${b64(hash)}`;
}

/** `hashPassword` for a nullable field: null stays null (no password set). */
export async function hashPasswordOrNull(password: string | null): Promise<string | null> {
  return password === null ? null : hashPassword(password);
}

// What an unknown user's password is checked against: a real hash, so that case costs what
// a known user's does.
let dummy: Promise<string> | null = null;

/**
 * Does `given` match the PHC string `stored`? Constant-time in the comparison; a null or
 * unreadable `stored` costs one full hash too and answers false.
 */
export async function verifyPassword(stored: string | null | undefined, given: string | null | undefined): Promise<boolean> {
  const candidate = typeof given === "string" ? given : "";
  const m = typeof stored === "string" ? PHC.exec(stored) : null;
  const logN = m === null ? 0 : Number(m[1]);
  if (m === null || logN < 1 || logN > MAX_LOG_N || Number(m[2]) < 1 || Number(m[3]) < 1) {
    dummy ??= hashPassword("svc: no such password");
    const other = PHC.exec(await dummy)!;
    const expected = Buffer.from(other[5], "base64");
    const actual = await derive(candidate, Buffer.from(other[4], "base64"), LOG_N, R, P, expected.length);
    timingSafeEqual(actual, expected);
    return false;
  }
  const expected = Buffer.from(m[5], "base64");
  const actual = await derive(candidate, Buffer.from(m[4], "base64"), logN, Number(m[2]), Number(m[3]), expected.length);
  return typeof given === "string" && timingSafeEqual(actual, expected);
}
