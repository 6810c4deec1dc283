// svc.toml, key by key (docs/language.md §1): the readers that accept each key's values.

import { configCodes } from "../../diagnostics/codes/config.js";
import { boolean, formatPath, integer, jsonValue, mapOf, oneOf, strings, table, text } from "./readers.js";
import type { ReadContext, Reader, StringCheck } from "./readers.js";
import type { TomlPath } from "./locate.js";
import { authTable } from "./auth.js";
import { eventsTable } from "./events.js";
import { BACKENDS, LOG_LEVELS } from "./schema.js";
import type { CredentialRef, CredentialSource } from "./schema.js";

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** setTimeout's largest delay: a longer timeout would fire at once. */
const MAX_TIMEOUT_MS = 2_147_483_647;
/** More threads than this is surely a typo, not a machine. */
const MAX_WORKERS = 1024;

export const listenAddress: StringCheck = (value) => {
  const m = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(value);
  return m && Number(m[1]) <= 65535
    ? null
    : { expected: "an address and port (host:port)", hint: "e.g. 127.0.0.1:8080, 0.0.0.0:80 or [::1]:8080" };
};

export const corsOrigin: StringCheck = (value) => {
  if (value === "*") return null;
  const url = parseUrl(value);
  if (url && (url.protocol === "http:" || url.protocol === "https:") && url.origin === value) return null;
  const hint =
    url && url.origin !== "null" && value.startsWith(url.origin)
      ? `an origin has no path: ${url.origin}`
      : "e.g. https://example.com, or * for any origin";
  return { expected: "an origin (scheme://host[:port]) or *", hint };
};

/** An http(s) URL without query, fragment or trailing slash: `Location` values are made by appending paths to it. */
export const publicUrl: StringCheck = (value) => {
  const url = parseUrl(value);
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.search || url.hash || url.username || url.password) {
    return { expected: "an http:// or https:// URL with no query, fragment or user", hint: "e.g. https://api.example.com" };
  }
  if (value.endsWith("/")) return { expected: "a URL without a trailing slash", hint: `write ${value.replace(/\/+$/, "")}` };
  return null;
};

/** `[server] header`: a Server header value (RFC 9110 §10.2.4), as the server's --server-header checks it. */
export const serverHeader: StringCheck = (value) =>
  value.length <= 128 && /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value)
    ? null
    : { expected: "a product name of visible ASCII, at most 128 characters", hint: 'e.g. header = "svc" or "svc/1.0"' };

export const httpUrl: StringCheck = (value) => {
  const url = parseUrl(value);
  return url && (url.protocol === "http:" || url.protocol === "https:")
    ? null
    : { expected: "an http:// or https:// URL" };
};

/** Module folder patterns: `*` stands for any part of one path segment; `**` is not supported. */
export const moduleGlob: StringCheck = (value) =>
  value.split(/[\\/]/).some((segment) => segment.includes("**"))
    ? {
        expected: "a folder or a pattern with * inside one path segment",
        hint: "list each level, e.g. modules/* or modules/*/*",
      }
    : null;

const envName: StringCheck = (value) =>
  IDENTIFIER.test(value) ? null : { expected: "an environment variable name", hint: "letters, digits and _" };

const identifier: StringCheck = (value) =>
  IDENTIFIER.test(value)
    ? null
    : { expected: "a credential name", hint: "letters, digits and _, not starting with a digit" };

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

const sourceFields = table({ env: text(envName), file: text() }, 'a table such as { env = "VAR" }');

/** `NAME = { env = "VAR" }` or `NAME = { file = "/path" }`: exactly one of the two. */
export const credentialSource: Reader<CredentialSource> = (ctx, value, path) => {
  const read = sourceFields(ctx, value, path);
  if (read === undefined) return undefined;
  const raw = value as Record<string, unknown>;
  const given = ["env", "file"].filter((key) => Object.hasOwn(raw, key));
  // Keys other than env and file were reported as unknown; "names no source" would say it twice.
  if (given.length === 0 && Object.keys(raw).length > 0) return undefined;
  if (given.length !== 1) {
    ctx.diagnostics.push(
      configCodes.credentialSource.at(ctx.file, ctx.index.best(path), formatPath(path), given.length === 2),
    );
    return undefined;
  }
  if (read.env !== undefined) return { env: read.env };
  if (read.file !== undefined) return { file: read.file };
  return undefined;
};

function credentialName(ctx: ReadContext, key: string, path: TomlPath): boolean {
  if (IDENTIFIER.test(key)) return true;
  ctx.diagnostics.push(configCodes.badCredentialName.at(ctx.file, ctx.index.key(path) ?? ctx.index.best(path), key));
  return false;
}

/** `{ credential = "name" }`; `example` is how the hint writes the whole key. */
function credentialRef(example: string): Reader<CredentialRef> {
  const fields = table({ credential: text(identifier) }, 'a table such as { credential = "name" }');
  return (ctx, value, path) => {
    const read = fields(ctx, value, path);
    if (read === undefined) return undefined;
    if (read.credential !== undefined) return { credential: read.credential };
    if (!Object.hasOwn(value as Record<string, unknown>, "credential")) {
      ctx.diagnostics.push(
        configCodes.missingKey.at(ctx.file, ctx.index.best(path), formatPath(path), "credential", example),
      );
    }
    return undefined;
  };
}

export const SERVER_FIELDS = {
  listen: text(listenAddress),
  cors_origin: text(corsOrigin),
  read_timeout_ms: integer(1, MAX_TIMEOUT_MS),
  write_timeout_ms: integer(1, MAX_TIMEOUT_MS),
  max_body_size: integer(1, Number.MAX_SAFE_INTEGER),
  workers: integer(1, MAX_WORKERS),
  log_level: oneOf(LOG_LEVELS),
  public_url: text(publicUrl),
  trust_proxy: boolean(),
  openapi: boolean(),
  header: text(serverHeader),
  metrics: boolean(),
  metrics_listen: text(listenAddress),
  metrics_token: text(identifier),
};

/** The whole file. */
export const svcToml = table({
  project: table({ name: text(), version: text() }),
  modules: table({ dirs: strings(moduleGlob) }),
  app: table({ dir: text() }),
  database: table({ backend: oneOf(BACKENDS), url: text() }),
  server: table(SERVER_FIELDS),
  credentials: mapOf(credentialSource, credentialName),
  auth: authTable,
  deploy: table({ url: text(httpUrl), token: credentialRef('token = { credential = "deploy_token" }') }),
  errors: table({ body: jsonValue(), validation_status: integer(400, 499) }),
  // File uploads (docs/operations.md, Uploads): where the bytes go and how many may come.
  uploads: table({
    store: oneOf(["disk", "database"] as const),
    dir: text(),
    max_file_size: integer(1, Number.MAX_SAFE_INTEGER),
    max_files: integer(1, 1000),
    max_request_size: integer(1, Number.MAX_SAFE_INTEGER),
  }),
  // Events delivered as outgoing webhooks (docs/language.md §2.9).
  events: eventsTable,
});
