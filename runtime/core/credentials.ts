// Credentials (docs/language.md §6): read once at start from where svc.toml `[credentials]` points
// (an environment variable or a file), else from `SVC_CREDENTIAL_<NAME>`. A credential the
// server needs but cannot read stops it at start, with one message naming every missing
// one and where it was looked for. Values never leave this module except to the code that
// uses them: no message, log line or error carries one.

import { readFileSync } from "node:fs";
import { isAbsolute } from "node:path";
import { StartupError, SvcError } from "./errors.js";
import type { CredentialSpec } from "../contract/index.js";

/** Credentials larger than this are refused at start: a secret or a token list is small, a wrong path may not be. */
export const MAX_CREDENTIAL_BYTES = 1024 * 1024;

export type Env = Readonly<Record<string, string | undefined>>;

/** Reads a file's bytes; injected by tests. */
export type ReadFile = (path: string) => Buffer;

/** The values of every credential the server uses, by name. */
export class Credentials {
  private readonly values: ReadonlyMap<string, string>;

  constructor(values: ReadonlyMap<string, string>) {
    this.values = values;
  }

  /** The value of a credential resolved at start; a name the spec did not list is a bug in the generated server. */
  get(name: string): string {
    const value = this.values.get(name);
    if (value === undefined) throw new SvcError("SVC_ERR_INTERNAL", `credential "${name}" was not resolved at start`);
    return value;
  }

  /** Never the values: a Credentials logged by mistake shows only the names. */
  toJSON(): { credentials: string[] } {
    return { credentials: [...this.values.keys()] };
  }
}

/**
 * Reads every credential in `specs`. Throws one StartupError listing each credential that
 * is missing or empty, and where it was looked for.
 */
export function resolveCredentials(
  specs: readonly CredentialSpec[],
  env: Env,
  read: ReadFile = readFileSync,
): Credentials {
  const values = new Map<string, string>();
  const problems: string[] = [];
  for (const spec of specs) {
    const result = readOne(spec, env, read);
    if (typeof result === "string") values.set(spec.name, result);
    else problems.push(`credential "${spec.name}" ${result.problem} (${origin(spec)})`);
  }
  if (problems.length === 1) throw new StartupError("SVC_ERR_CREDENTIAL", problems[0]);
  if (problems.length > 1)
    throw new StartupError("SVC_ERR_CREDENTIAL", `${problems.length} credentials are missing:\n  ${problems.join("\n  ")}`);
  return new Credentials(values);
}

/** `SVC_CREDENTIAL_GITHUB_WEBHOOK` for `github_webhook`: the variable read for a credential svc.toml does not declare. */
export function fallbackEnvName(name: string): string {
  return `SVC_CREDENTIAL_${name.toUpperCase()}`;
}

function readOne(spec: CredentialSpec, env: Env, read: ReadFile): string | { problem: string } {
  if ("env" in spec.from) {
    const value = env[spec.from.env];
    if (value === undefined) return { problem: `is missing: the environment variable ${spec.from.env} is not set` };
    if (value === "") return { problem: `is empty: the environment variable ${spec.from.env} is set but empty` };
    return value;
  }
  const path = spec.from.file;
  let bytes: Buffer;
  try {
    bytes = read(path);
  } catch (err) {
    const where = isAbsolute(path) ? "" : `, relative to ${process.cwd()}`;
    return { problem: `is missing: cannot read the file ${path} (${fileProblem(err)}${where})` };
  }
  if (bytes.length > MAX_CREDENTIAL_BYTES) {
    return { problem: `is not a credential: the file ${path} holds more than ${MAX_CREDENTIAL_BYTES} bytes` };
  }
  // Files written by editors and `echo` end in a line break that is not part of the secret.
  const value = bytes.toString("utf8").replace(/[\r\n]+$/, "");
  if (value === "") return { problem: `is empty: the file ${path} holds nothing` };
  return value;
}

function origin(spec: CredentialSpec): string {
  if (!spec.declared)
    return `svc.toml does not declare it under [credentials], so it is read from ${fallbackEnvName(spec.name)}`;
  return "env" in spec.from
    ? `svc.toml: [credentials] ${spec.name} = { env = ${JSON.stringify(spec.from.env)} }`
    : `svc.toml: [credentials] ${spec.name} = { file = ${JSON.stringify(spec.from.file)} }`;
}

/** Why a file could not be read, without the stack or anything the file held. */
function fileProblem(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case "ENOENT":
      return "no such file";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EISDIR":
      return "it is a folder";
    default:
      return code ?? (err instanceof Error ? err.message : String(err));
  }
}
