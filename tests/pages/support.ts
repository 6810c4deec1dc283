// Building and serving projects with pages for these tests. The generated server imports
// the runtime compiled next to this file (the same build the tests run from), so the
// tests exercise this checkout's runtime whichever out dir they were compiled into.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildFiles, writeFiles } from "../support/build-cache.js";
import { type TestServer, startServer, tmpDir } from "../support/server.js";

export const runtimeUrl = new URL("../../runtime/index.js", import.meta.url).href;

/** Builds the project at `dir` into a fresh folder and returns it. */
export async function buildProject(dir: string): Promise<string> {
  const files = await buildFiles({ mode: "project", dir }, { runtimeImport: runtimeUrl });
  const out = tmpDir("pages-");
  writeFiles(out, files);
  return out;
}

/** Builds and starts a project on an in-memory database. */
export async function serveProject(dir: string, env: NodeJS.ProcessEnv = {}): Promise<{ out: string; server: TestServer }> {
  const out = await buildProject(dir);
  const server = await startServer(out, ["--db", ":memory:", "--workers", "1"], env);
  return { out, server };
}

/** An application/x-www-form-urlencoded body, as a browser encodes a form. */
export function urlencoded(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/** A multipart/form-data body and its Content-Type, as a browser sends a form with that enctype. */
export function multipart(fields: Record<string, string>): { body: Buffer; contentType: string } {
  const boundary = "----svcTestBoundary7MA4YWxkTrZu0gW";
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return { body: Buffer.from(`${parts.join("")}--${boundary}--\r\n`, "utf8"), contentType: `multipart/form-data; boundary=${boundary}` };
}

export const FORM = "application/x-www-form-urlencoded";
