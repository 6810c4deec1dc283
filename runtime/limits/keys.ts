// What a counter is keyed by, and how the key is stored.
//
// The client address is the socket's peer, or with `--trust-proxy` the last address of
// X-Forwarded-For: the one the proxy in front of the server appended (the earlier ones are
// whatever the client wrote). IPv6 addresses count by their /64 prefix, since one host is
// routinely given a whole /64 and could otherwise take a fresh address per request.
//
// Keys may be personal (an e-mail being tried, an address), so the table holds only the
// SHA-256 of the policy and the key: a dump shows how many keys were counted recently,
// and confirms a guessed key only to someone who already has it.

import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { isIPv6 } from "node:net";

/** The client address of `req`, as limits and the throttle count it. */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headers["x-forwarded-for"];
    if (typeof forwarded === "string") {
      const last = forwarded.slice(forwarded.lastIndexOf(",") + 1).trim();
      if (last !== "") return normalizeAddress(last);
    }
  }
  return normalizeAddress(req.socket.remoteAddress ?? "");
}

function normalizeAddress(address: string): string {
  if (address.startsWith("::ffff:") && address.includes(".")) return address.slice(7);
  if (!isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, 4).join(":")}::/64`;
}

function expandIPv6(address: string): string[] {
  const zone = address.indexOf("%");
  const bare = zone === -1 ? address : address.slice(0, zone);
  const [head, tail] = bare.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const fill = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill("0");
  return [...left, ...fill, ...right].map((part) => part.toLowerCase().replace(/^0+(?=.)/, ""));
}

/**
 * An argument's value as a key. Text is compared as a person would read it (NFKC, trimmed,
 * lower case), so that `Victim@Example.com ` is not a fresh key for the same account.
 */
export function valueKey(value: unknown): string {
  if (typeof value === "string") return value.normalize("NFKC").trim().toLowerCase();
  if (value === undefined || value === null) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** The stored id of `key` under `policy`: 64 hex digits. */
export function counterId(policy: string, key: string): string {
  return createHash("sha256").update(policy).update("\n").update(key).digest("hex");
}
