// Passwords (docs/language.md §6, Passwords): stored as a PHC string of scrypt from
// node:crypto, `$scrypt$ln=17,r=8,p=1$<salt>$<hash>` (salt and hash in unpadded base64, as
// the PHC string format writes them). scrypt rather than argon2id: it ships with Node, so
// no native package and no binary download. N = 2^17, r = 8, p = 1 is OWASP's minimum for
// scrypt (Password Storage Cheat Sheet): 128 MiB and about a second of one core on a
// loaded small machine, some 0.3 s on an idle one.
//
// SVC_PASSWORD_COST lowers (or raises) N for new hashes, for test runs (password-cost.ts).
// Verifying parses the stored parameters, so a later change of the cost keeps old hashes
// valid; `verifyPassword` says when a hash that matched is weaker than the current setting,
// and the generated code writes a new one back (runtime/auth/password-work.ts). A missing
// stored value (an unknown user) still costs one full hash, and every failure reads the
// same, so neither time nor answer tells the two cases apart.
//
// Every hash runs on libuv's thread pool (crypto.scrypt, never scryptSync), and at most
// HASH_CONCURRENCY at once per process: a sign-in flood queues here instead of taking every
// core and every pool thread (file reads and DNS lookups share that pool).

import { availableParallelism } from "node:os";
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/** log2 of scrypt's N for new hashes: 17 unless SVC_PASSWORD_COST says otherwise (password-cost.ts). */
export const DEFAULT_LOG_N = 17;
let LOG_N = DEFAULT_LOG_N;
const R = 8;
const P = 1;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
/** scrypt needs 128·N·r bytes and refuses anything above `maxmem`: allow twice that. */
const MAX_MEM = 256 * N_of(DEFAULT_LOG_N) * R;
/** Parameters a stored hash may carry: enough range for stronger settings, not a denial of service. */
export const MAX_LOG_N = 20;

/**
 * Hashes running at once in one process: one core is left to the event loop, and at most
 * two of libuv's four threads are taken (two cores or fewer: one hash at a time).
 */
export const HASH_CONCURRENCY = Math.max(1, Math.min(2, availableParallelism() - 1));

/** log2 of N for new hashes; a stored hash below it is upgraded on its next successful verify. */
export function passwordCost(): number {
  return LOG_N;
}

/** Sets log2 of N for new hashes (password-cost.ts checks the value first). */
export function setPasswordCost(logN: number): void {
  LOG_N = logN;
  // The unknown user's stand-in hash costs what a new hash costs.
  dummy = null;
}

const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

function N_of(logN: number): number {
  return 2 ** logN;
}

type Scrypt = (password: string, salt: Buffer, length: number, options: ScryptOptions) => Promise<Buffer>;

const nodeScrypt: Scrypt = (password, salt, length, options) =>
  new Promise((resolve, reject) => {
    scrypt(password, salt, length, options, (err, key) => (err ? reject(err) : resolve(key)));
  });

let derivation: Scrypt = nodeScrypt;

/**
 * For tests: every hash goes through `fn` (e.g. one that waits for a signal before calling
 * the real one, to show what else runs meanwhile); `null` puts node:crypto's scrypt back.
 */
export function useScryptForTests(fn: ((real: Scrypt) => Scrypt) | null): void {
  derivation = fn === null ? nodeScrypt : fn(nodeScrypt);
}

let running = 0;
const waiting: (() => void)[] = [];

async function derive(password: string, salt: Buffer, logN: number, r: number, p: number, length: number): Promise<Buffer> {
  const options: ScryptOptions = { N: N_of(logN), r, p, maxmem: Math.max(MAX_MEM, 256 * N_of(logN) * r) };
  if (running >= HASH_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await derivation(password.normalize("NFC"), salt, length, options);
  } finally {
    // The slot passes straight to the next in line, so `running` never dips and lets a newcomer overtake.
    const next = waiting.shift();
    if (next === undefined) running--;
    else next();
  }
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

/** What checking a password found: a match, and whether its stored hash is weaker than new ones. */
export interface Verdict {
  ok: boolean;
  /** Matched, and the stored parameters are below `CURRENT`: hash the password again and store that. */
  weak: boolean;
}

/**
 * Does `given` match the PHC string `stored`? Constant-time in the comparison; a null or
 * unreadable `stored` costs one full hash too and answers false.
 */
export async function checkPassword(stored: string | null | undefined, given: string | null | undefined): Promise<Verdict> {
  const candidate = typeof given === "string" ? given : "";
  const m = typeof stored === "string" ? PHC.exec(stored) : null;
  const logN = m === null ? 0 : Number(m[1]);
  if (m === null || logN < 1 || logN > MAX_LOG_N || Number(m[2]) < 1 || Number(m[3]) < 1) {
    dummy ??= hashPassword("svc: no such password");
    const other = PHC.exec(await dummy)!;
    const expected = Buffer.from(other[5], "base64");
    const actual = await derive(candidate, Buffer.from(other[4], "base64"), LOG_N, R, P, expected.length);
    timingSafeEqual(actual, expected);
    return { ok: false, weak: false };
  }
  const [r, p] = [Number(m[2]), Number(m[3])];
  const expected = Buffer.from(m[5], "base64");
  const actual = await derive(candidate, Buffer.from(m[4], "base64"), logN, r, p, expected.length);
  const ok = typeof given === "string" && timingSafeEqual(actual, expected);
  return { ok, weak: ok && isWeak(logN, r, expected.length) };
}

/** `verify_password(stored, given)` on its own: the match alone (the upgrade is password-work.ts's). */
export async function verifyPassword(stored: string | null | undefined, given: string | null | undefined): Promise<boolean> {
  return (await checkPassword(stored, given)).ok;
}

/**
 * Below the current cost in memory (N·r) or in output: such a hash is redone. p is left
 * out: OWASP trades p against N, and one more pass over the same memory is no weaker.
 */
function isWeak(logN: number, r: number, hashBytes: number): boolean {
  return N_of(logN) * r < N_of(LOG_N) * R || hashBytes < HASH_BYTES;
}
