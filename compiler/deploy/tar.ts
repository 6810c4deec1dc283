// A small ustar (POSIX.1-1988) writer and reader, gzip-wrapped: enough for `svc deploy`'s
// archive and for its tests to unpack it, without a dependency. Names longer than ustar's
// 100 bytes use its 155-byte prefix field; one that still does not fit is refused rather
// than written as a GNU or pax extension other tools might read differently.

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve, sep } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";

export interface TarEntry {
  /** Forward-slash path inside the archive; a directory ends without a slash. */
  path: string;
  /** Absent for a directory. */
  data?: Buffer;
  /** Permission bits; 0o644 for files, 0o755 for directories unless given. */
  mode?: number;
}

const BLOCK = 512;

/** The entries as a `.tar.gz`. Times are fixed at 0 so that the same input makes the same bytes. */
export function writeTarGz(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const isDir = entry.data === undefined;
    const data = entry.data ?? Buffer.alloc(0);
    parts.push(
      header(isDir ? `${entry.path}/` : entry.path, data.length, entry.mode ?? (isDir ? 0o755 : 0o644), isDir),
    );
    parts.push(data);
    const pad = (BLOCK - (data.length % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  // Two zero blocks end a tar archive.
  parts.push(Buffer.alloc(BLOCK * 2));
  return gzipSync(Buffer.concat(parts), { level: 6 });
}

function header(path: string, size: number, mode: number, isDir: boolean): Buffer {
  const h = Buffer.alloc(BLOCK);
  const [prefix, name] = splitName(path);
  h.write(name, 0, 100, "utf8");
  writeOctal(h, 100, 8, mode);
  writeOctal(h, 108, 8, 0);
  writeOctal(h, 116, 8, 0);
  writeOctal(h, 124, 12, size);
  writeOctal(h, 136, 12, 0);
  h.fill(0x20, 148, 156);
  h.write(isDir ? "5" : "0", 156, 1, "ascii");
  h.write("ustar\u000000", 257, 8, "ascii");
  h.write(prefix, 345, 155, "utf8");
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, "0")}\u0000 `, 148, 8, "ascii");
  return h;
}

function splitName(path: string): [string, string] {
  if (Buffer.byteLength(path) <= 100) return ["", path];
  // Split at a slash so that the name part fits in 100 bytes and the prefix in 155.
  for (let i = path.indexOf("/"); i !== -1; i = path.indexOf("/", i + 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100 && name !== "") return [prefix, name];
  }
  throw new Error(`path too long for a tar archive: ${path}`);
}

function writeOctal(h: Buffer, offset: number, length: number, value: number): void {
  h.write(`${value.toString(8).padStart(length - 1, "0")}\u0000`, offset, length, "ascii");
}

/** The entries of a `.tar.gz` written by writeTarGz (or any plain ustar archive). Throws on a damaged one. */
export function readTarGz(archive: Buffer): TarEntry[] {
  const tar = gunzipSync(archive);
  const entries: TarEntry[] = [];
  let offset = 0;
  while (offset + BLOCK <= tar.length) {
    const h = tar.subarray(offset, offset + BLOCK);
    if (h.every((b) => b === 0)) break;
    const name = readString(h, 0, 100);
    const prefix = readString(h, 345, 155);
    const path = (prefix ? `${prefix}/${name}` : name).replace(/\/$/, "");
    const mode = readOctal(h, 100, 8);
    const size = readOctal(h, 124, 12);
    const type = String.fromCharCode(h[156]);
    offset += BLOCK;
    if (offset + size > tar.length) throw new Error(`the archive is truncated inside ${path}`);
    if (type === "5") entries.push({ path, mode });
    else if (type === "0" || type === "\u0000")
      entries.push({ path, mode, data: Buffer.from(tar.subarray(offset, offset + size)) });
    offset += Math.ceil(size / BLOCK) * BLOCK;
  }
  return entries;
}

function readString(h: Buffer, offset: number, length: number): string {
  const field = h.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString("utf8");
}

function readOctal(h: Buffer, offset: number, length: number): number {
  const text = readString(h, offset, length).trim();
  const value = text === "" ? 0 : parseInt(text, 8);
  if (!Number.isFinite(value)) throw new Error("a tar header holds a bad number");
  return value;
}

/** Unpacks a `.tar.gz` into `dir`; a path that would land outside it is refused. */
export function extractTarGz(archive: Buffer, dir: string): void {
  const root = resolve(dir);
  for (const entry of readTarGz(archive)) {
    const target = resolve(root, entry.path);
    if (target !== root && !target.startsWith(root + sep))
      throw new Error(`the archive holds a path outside its folder: ${entry.path}`);
    if (entry.data === undefined) {
      mkdirSync(target, { recursive: true });
    } else {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, entry.data, { mode: entry.mode ?? 0o644 });
    }
  }
}
