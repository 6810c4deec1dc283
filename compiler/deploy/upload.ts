// `svc deploy`'s upload: the archive goes to svc.toml's `[deploy] url` in one HTTP PUT with
// `Authorization: Bearer <token>`, the token read from the credential `[deploy] token`
// names (docs/language.md §6: an environment variable or a file, else SVC_CREDENTIAL_<NAME>).

import { fallbackEnvName, resolveCredentials, type Env } from "../../runtime/core/credentials.js";
import type { ProjectConfig } from "../project/config.js";

export interface UploadTarget {
  url: string;
  token: string;
}

export interface UploadAnswer {
  ok: boolean;
  status: number;
  /** The receiver's answer, cut to 2,000 characters. */
  body: string;
}

/**
 * Where to upload, from svc.toml; null when `[deploy] url` is not set. Throws with a message
 * for the user when the token's credential cannot be read.
 */
export function uploadTarget(config: ProjectConfig, env: Env = process.env): UploadTarget | null {
  const url = config.deploy.url;
  if (url === undefined) return null;
  if (!/^https?:\/\//i.test(url)) throw new Error(`[deploy] url must be an http:// or https:// address, not "${url}"`);
  const ref = config.deploy.token;
  if (ref === undefined)
    throw new Error('[deploy] url is set but [deploy] token is not; add token = { credential = "…" }');
  const declared = config.credentials[ref.credential];
  const credentials = resolveCredentials(
    [
      {
        name: ref.credential,
        from: declared ?? { env: fallbackEnvName(ref.credential) },
        declared: declared !== undefined,
      },
    ],
    env,
  );
  // A token file commonly ends with a newline, which is not part of the token.
  return { url, token: credentials.get(ref.credential).trim() };
}

/** PUTs the archive; a network failure throws, an HTTP error is an answer with ok false. */
export async function upload(target: UploadTarget, archive: Buffer, timeoutMs = 120_000): Promise<UploadAnswer> {
  // Loaded here, not with the CLI: a build never uploads.
  const { request } = await import("undici");
  const res = await request(target.url, {
    method: "PUT",
    body: archive,
    headers: {
      authorization: `Bearer ${target.token}`,
      "content-type": "application/gzip",
      "content-length": String(archive.length),
    },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const text = await res.body.text();
  return { ok: res.statusCode >= 200 && res.statusCode < 300, status: res.statusCode, body: text.slice(0, 2000) };
}
