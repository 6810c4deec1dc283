// Reads svc.toml (docs/language.md §1): parses it with smol-toml, checks every key against
// what the project configuration knows, and points each problem at its line and column.

import { parse, TomlError } from "smol-toml";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { sortDiagnostics } from "../diagnostics/diagnostic.js";
import { configCodes } from "../diagnostics/codes/config.js";
import { respondCodes } from "../diagnostics/codes/respond.js";
import { observabilityCodes } from "../diagnostics/codes/observability.js";
import { closest } from "../diagnostics/did-you-mean.js";
import { svcToml } from "./config/fields.js";
import { PositionMap } from "../parse/positions.js";
import { indexToml } from "./config/locate.js";
import type { TomlIndex, TomlPath } from "./config/locate.js";
import { formatPath, isTable } from "./config/readers.js";
import type { ReadContext } from "./config/readers.js";
import { defaultConfig } from "./config/schema.js";
import { subscriberSecrets } from "./config/events.js";
import type { Backend, CredentialRef, ProjectConfig } from "./config/schema.js";

export type {
  Backend,
  CredentialRef,
  CredentialSource,
  LogLevel,
  ProjectConfig,
  ServerConfig,
} from "./config/schema.js";
export { BACKENDS, LOG_LEVELS, defaultConfig } from "./config/schema.js";
export { indexToml, locate } from "./config/locate.js";
export type { TomlIndex, TomlPath } from "./config/locate.js";

export interface ConfigResult {
  config: ProjectConfig;
  diagnostics: Diagnostic[];
  /** Where each key and value is written; null when the text is not valid TOML. */
  index: TomlIndex | null;
}

/**
 * `file` is the path of svc.toml relative to the project root (it names the file in
 * diagnostics). Invalid keys are reported and left at their defaults, so one run can
 * report every problem.
 */
export function readConfig(file: string, text: string): ConfigResult {
  const diagnostics: Diagnostic[] = [];
  const config = defaultConfig();
  // A byte order mark is not TOML; a space in its place keeps every offset where it was.
  const source = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;

  let raw: Record<string, unknown>;
  try {
    // Integers as bigints, so that `workers = 2.0` (a float) is told apart from `2`.
    raw = parse(source, { integersAsBigInt: true });
  } catch (error) {
    diagnostics.push(syntaxError(file, source, error));
    return { config, diagnostics, index: null };
  }

  const index = indexToml(source);
  const ctx: ReadContext = { file, index, diagnostics };
  const read = svcToml(ctx, raw, []) ?? {};

  Object.assign(config.project, read.project);
  if (read.modules?.dirs) config.modules.dirs = read.modules.dirs;
  Object.assign(config.app, read.app);
  Object.assign(config.database, read.database);
  Object.assign(config.server, read.server);
  if (read.credentials) config.credentials = read.credentials;
  Object.assign(config.auth, read.auth);
  Object.assign(config.deploy, read.deploy);
  Object.assign(config.errors, read.errors);
  Object.assign(config.uploads, read.uploads);
  Object.assign(config.events, read.events);
  if (read.events !== undefined) Object.assign(config.events, { file, at: index.best(["events", "subscribers"]) });

  const declared = isTable(raw.credentials) ? Object.keys(raw.credentials) : [];
  checkCredentialRef(ctx, ["auth", "bearer"], config.auth.bearer, declared);
  checkCredentialRef(ctx, ["auth", "jwt", "secret"], config.auth.jwt?.secret, declared);
  checkCredentialRef(ctx, ["auth", "jwt", "private_key"], config.auth.jwt?.private_key, declared);
  checkCredentialRef(ctx, ["deploy", "token"], config.deploy.token, declared);
  for (const { path, name } of subscriberSecrets(config.events)) checkCredentialName(ctx, path, name, declared);
  checkMetrics(ctx, config.server, declared);
  checkDatabaseUrl(ctx, config);
  if (config.errors.body !== undefined) {
    const problem = errorBodyProblem(config.errors.body);
    if (problem) ctx.diagnostics.push(respondCodes.errorShape.at(file, ctx.index.best(["errors", "body"]), problem));
    if (problem) delete config.errors.body;
  }

  return { config, diagnostics: sortDiagnostics(diagnostics), index };
}

/** Placeholders an error body's strings may hold. */
export const ERROR_PLACEHOLDERS = ["message", "status"];

/** What is wrong with `[errors] body`; null when it is a usable template. */
function errorBodyProblem(body: unknown): string | null {
  const strings: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === "string") strings.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (isTable(v)) Object.values(v).forEach(walk);
  };
  walk(body);
  for (const s of strings) {
    for (const m of s.matchAll(/\{([^{}]*)\}/g)) {
      if (!ERROR_PLACEHOLDERS.includes(m[1])) return `\`{${m[1]}}\` is not a placeholder of error bodies (only {message} and {status})`;
    }
  }
  if (!strings.some((s) => s.includes("{message}"))) return "the error body never shows {message}, so a client would not learn what went wrong";
  return null;
}

function syntaxError(file: string, source: string, error: unknown): Diagnostic {
  if (!(error instanceof TomlError)) {
    return configCodes.tomlSyntax.at(file, null, error instanceof Error ? error.message : String(error));
  }
  // smol-toml's message is "Invalid TOML document: <problem>" followed by its own code frame.
  const problem = error.message.split("\n")[0].replace(/^Invalid TOML document:\s*/, "");
  const lines = new PositionMap(source);
  const at = lines.offset(error.line, error.column);
  return configCodes.tomlSyntax.at(file, lines.span(at, Math.min(at + 1, source.length)), problem);
}

/**
 * A reference to an undeclared credential is a warning, not an error: docs/language.md §6 says
 * such a credential is read from SVC_CREDENTIAL_<NAME>, and the server stops at start
 * with a clear message when that is missing too.
 */
function checkCredentialRef(
  ctx: ReadContext,
  path: TomlPath,
  ref: CredentialRef | undefined,
  declared: string[],
): void {
  if (!ref || declared.includes(ref.credential)) return;
  const at = ctx.index.best([...path, "credential"]);
  ctx.diagnostics.push(
    configCodes.undeclaredCredential.at(
      ctx.file,
      at,
      formatPath([...path, "credential"]),
      ref.credential,
      closest(ref.credential, declared),
    ),
  );
}

/** A credential named by a plain string key (`secret = "crm_hook"`): declared, or SVC4009. */
function checkCredentialName(ctx: ReadContext, path: TomlPath, name: string, declared: string[]): void {
  if (declared.includes(name)) return;
  ctx.diagnostics.push(configCodes.undeclaredCredential.at(ctx.file, ctx.index.best(path), formatPath(path), name, closest(name, declared)));
}

/** `[server] metrics_token` names a credential as the `{ credential = … }` keys do; metrics_listen is another address. */
function checkMetrics(ctx: ReadContext, server: ProjectConfig["server"], declared: string[]): void {
  const token = server.metrics_token;
  if (token !== undefined && !declared.includes(token)) {
    const at = ctx.index.best(["server", "metrics_token"]);
    ctx.diagnostics.push(configCodes.undeclaredCredential.at(ctx.file, at, "server.metrics_token", token, closest(token, declared)));
  }
  const listen = server.listen ?? "127.0.0.1:8080";
  if (server.metrics_listen !== undefined && sameAddress(server.metrics_listen, listen)) {
    const at = ctx.index.best(["server", "metrics_listen"]);
    ctx.diagnostics.push(observabilityCodes.metricsListenIsListen.at(ctx.file, at, server.metrics_listen));
  }
}

/** An empty host means 127.0.0.1, as the runtime reads `--listen`. */
function sameAddress(a: string, b: string): boolean {
  const norm = (v: string): string => (v.startsWith(":") ? `127.0.0.1${v}` : v);
  return norm(a) === norm(b);
}

function checkDatabaseUrl(ctx: ReadContext, config: ProjectConfig): void {
  const { url, backend } = config.database;
  if (url === undefined) return;
  const at = ctx.index.best(["database", "url"]);
  const named = backendOfUrl(url);
  if (named === null) {
    ctx.diagnostics.push(configCodes.unknownUrlScheme.at(ctx.file, at, urlScheme(url) ?? ""));
  } else if (backend !== undefined && protocolOf(named) !== protocolOf(backend)) {
    ctx.diagnostics.push(configCodes.urlBackendMismatch.at(ctx.file, at, named, backend));
  }
}

/** The scheme of a URL, lower-cased; null for a plain path (a one-letter "scheme" is a Windows drive). */
export function urlScheme(url: string): string | null {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url);
  return m && m[1].length > 1 ? m[1].toLowerCase() : null;
}

/**
 * The backend a database URL names: `sqlite:`/`file:` URLs and plain paths (`data/app.db`,
 * `:memory:`) are sqlite; null when the scheme names no supported database.
 */
export function backendOfUrl(url: string): Backend | null {
  const scheme = urlScheme(url);
  switch (scheme) {
    case null:
    case "sqlite":
    case "file":
      return "sqlite";
    case "postgres":
    case "postgresql":
      return "postgres";
    case "mysql":
      return "mysql";
    case "tidb":
      return "tidb";
    default:
      return null;
  }
}

/** TiDB speaks the MySQL protocol, so a mysql:// URL is right for it and the other way round. */
function protocolOf(backend: Backend): Backend {
  return backend === "tidb" ? "mysql" : backend;
}
