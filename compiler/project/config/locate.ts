// Where each key and value of a TOML text is written. smol-toml returns plain values
// without positions, so this scanner walks the same text a second time and records the
// span of every key segment and every value by its full path. It trusts the text to be
// valid TOML (readConfig only calls it after smol-toml accepted the text) but never
// loops or throws on anything else: every step either advances or stops.

import type { Span } from "../../parse/ast.js";
import { PositionMap } from "../../parse/positions.js";

/** A path into the document: table and key names, and indexes into arrays (of tables). */
export type TomlPath = readonly (string | number)[];

export interface TomlIndex {
  /** The span of the key segment that names `path`, where the text first writes it; null when it never does. */
  key(path: TomlPath): Span | null;
  /** The span of the value written at `path` (scalar, array or inline table); null for tables made by headers or dotted keys. */
  value(path: TomlPath): Span | null;
  /** The best place to point at for `path`: its value, else its key, else the nearest written ancestor. */
  best(path: TomlPath): Span | null;
}

interface Segment {
  name: string;
  start: number;
  end: number;
}

const enc = (path: TomlPath) => JSON.stringify(path);
const isBare = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_-]/.test(c);
const ESCAPES: Record<string, string> = {
  b: "\b",
  t: "\t",
  n: "\n",
  f: "\f",
  r: "\r",
  e: "\x1b",
  '"': '"',
  "\\": "\\",
};

export function indexToml(text: string): TomlIndex {
  const lines = new PositionMap(text);
  const scanner = new Scanner(text);
  scanner.document();
  const span = (range: [number, number] | undefined) => (range ? lines.span(range[0], range[1]) : null);
  const index: TomlIndex = {
    key: (path) => span(scanner.keys.get(enc(path))),
    value: (path) => span(scanner.values.get(enc(path))),
    best(path) {
      for (let n = path.length; n > 0; n--) {
        const p = path.slice(0, n);
        const found = index.value(p) ?? index.key(p);
        if (found) return found;
      }
      return null;
    },
  };
  return index;
}

/** The span of the key that names `path` in `text`, or null when the text does not write it. */
export function locate(text: string, path: TomlPath): Span | null {
  return indexToml(text).key(path);
}

class Scanner {
  pos = 0;
  readonly keys = new Map<string, [number, number]>();
  readonly values = new Map<string, [number, number]>();
  /** How many `[[x]]` headers each resolved array-of-tables path has seen so far. */
  private readonly arrayTables = new Map<string, number>();

  constructor(private readonly text: string) {}

  document(): void {
    let table: (string | number)[] = [];
    while (this.pos < this.text.length) {
      this.skipBlank();
      if (this.pos >= this.text.length) break;
      const before = this.pos;
      if (this.text[this.pos] === "[") {
        const isArray = this.text[this.pos + 1] === "[";
        this.pos += isArray ? 2 : 1;
        const segments = this.key();
        if (segments) table = this.header(segments, isArray);
      } else {
        this.keyValue(table);
      }
      this.skipLine();
      if (this.pos === before) this.pos++;
    }
  }

  /** Resolves a header to a path: a prefix naming an array of tables means its latest element. */
  private header(segments: Segment[], isArray: boolean): (string | number)[] {
    const path: (string | number)[] = [];
    segments.forEach((segment, i) => {
      path.push(segment.name);
      this.addKey(path, segment);
      const count = this.arrayTables.get(enc(path));
      if (isArray && i === segments.length - 1) {
        this.arrayTables.set(enc(path), (count ?? 0) + 1);
        path.push(count ?? 0);
      } else if (count !== undefined) {
        path.push(count - 1);
      }
    });
    return path;
  }

  private keyValue(prefix: TomlPath): void {
    const segments = this.key();
    if (!segments) return;
    this.skipSpaces();
    if (this.text[this.pos] !== "=") return;
    this.pos++;
    this.skipSpaces();
    const path = [...prefix];
    for (const segment of segments) {
      path.push(segment.name);
      this.addKey(path, segment);
    }
    this.value(path);
  }

  private addKey(path: TomlPath, segment: Segment): void {
    const k = enc(path);
    if (!this.keys.has(k)) this.keys.set(k, [segment.start, segment.end]);
  }

  /** A dotted key: segments separated by `.`, with optional spaces around the dots. */
  private key(): Segment[] | null {
    const segments: Segment[] = [];
    for (;;) {
      this.skipSpaces();
      const segment = this.keySegment();
      if (!segment) break;
      segments.push(segment);
      this.skipSpaces();
      if (this.text[this.pos] !== ".") break;
      this.pos++;
    }
    return segments.length > 0 ? segments : null;
  }

  private keySegment(): Segment | null {
    const start = this.pos;
    const c = this.text[start];
    let name: string;
    if (c === '"') name = this.basicString();
    else if (c === "'") name = this.literalString();
    else {
      while (isBare(this.text[this.pos])) this.pos++;
      if (this.pos === start) return null;
      name = this.text.slice(start, this.pos);
    }
    return { name, start, end: this.pos };
  }

  private value(path: TomlPath): void {
    const start = this.pos;
    const c = this.text[start];
    if (c === '"') {
      if (this.text.startsWith('"""', start)) this.multiline('"""', true);
      else this.basicString();
    } else if (c === "'") {
      if (this.text.startsWith("'''", start)) this.multiline("'''", false);
      else this.literalString();
    } else if (c === "[") this.array(path);
    else if (c === "{") this.inlineTable(path);
    else this.scalar();
    const k = enc(path);
    if (this.pos > start && !this.values.has(k)) this.values.set(k, [start, this.pos]);
  }

  private array(path: TomlPath): void {
    let i = 0;
    this.items("]", () => this.value([...path, i++]));
  }

  private inlineTable(path: TomlPath): void {
    this.items("}", () => this.keyValue(path));
  }

  /** The comma-separated items of an array or inline table, from its opening bracket to `close`. */
  private items(close: string, item: () => void): void {
    this.pos++;
    for (;;) {
      this.skipBlank();
      const c = this.text[this.pos];
      if (c === undefined) return;
      if (c === close) {
        this.pos++;
        return;
      }
      if (c === ",") {
        this.pos++;
        continue;
      }
      const before = this.pos;
      item();
      // An item the scanner cannot read must not stop it: skip a character and go on.
      if (this.pos === before) this.pos++;
    }
  }

  /** Numbers, booleans, dates and times; a date and a time may be separated by one space. */
  private scalar(): void {
    const start = this.pos;
    const stops = (ch: string | undefined) => ch === undefined || /[\s,\]}#]/.test(ch);
    while (!stops(this.text[this.pos])) this.pos++;
    const sofar = this.text.slice(start, this.pos);
    if (/^\d{4}-\d{2}-\d{2}$/.test(sofar) && /^ \d{2}:/.test(this.text.slice(this.pos, this.pos + 4))) {
      this.pos++;
      while (!stops(this.text[this.pos])) this.pos++;
    }
  }

  /** A `"…"` string; returns its decoded text (keys need it). */
  private basicString(): string {
    let out = "";
    this.pos++;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos];
      if (c === '"') {
        this.pos++;
        break;
      }
      if (c === "\n") break;
      if (c === "\\") {
        out += this.escape();
        continue;
      }
      out += c;
      this.pos++;
    }
    return out;
  }

  private escape(): string {
    const c = this.text[this.pos + 1] ?? "";
    const width = c === "u" ? 4 : c === "U" ? 8 : c === "x" ? 2 : 0;
    if (width > 0) {
      const hex = this.text.slice(this.pos + 2, this.pos + 2 + width);
      this.pos += 2 + width;
      const code = Number.parseInt(hex, 16);
      return /^[0-9A-Fa-f]+$/.test(hex) && code <= 0x10ffff ? String.fromCodePoint(code) : "";
    }
    this.pos += 2;
    return ESCAPES[c] ?? c;
  }

  private literalString(): string {
    const start = ++this.pos;
    while (this.pos < this.text.length && this.text[this.pos] !== "'" && this.text[this.pos] !== "\n") this.pos++;
    const name = this.text.slice(start, this.pos);
    if (this.text[this.pos] === "'") this.pos++;
    return name;
  }

  /** `"""…"""` or `'''…'''`; up to two quotes may sit right before the closing delimiter. */
  private multiline(delimiter: string, escapes: boolean): void {
    this.pos += 3;
    while (this.pos < this.text.length) {
      if (escapes && this.text[this.pos] === "\\") {
        this.pos += 2;
        continue;
      }
      if (this.text.startsWith(delimiter, this.pos)) {
        this.pos += 3;
        for (let extra = 0; extra < 2 && this.text[this.pos] === delimiter[0]; extra++) this.pos++;
        return;
      }
      this.pos++;
    }
  }

  private skipSpaces(): void {
    while (this.text[this.pos] === " " || this.text[this.pos] === "\t") this.pos++;
  }

  /** Spaces, line breaks and comments. */
  private skipBlank(): void {
    for (;;) {
      const c = this.text[this.pos];
      if (c === " " || c === "\t" || c === "\r" || c === "\n") this.pos++;
      else if (c === "#") this.skipComment();
      else return;
    }
  }

  private skipComment(): void {
    while (this.pos < this.text.length && this.text[this.pos] !== "\n") this.pos++;
  }

  /** The rest of the line: closing brackets of a header, a trailing comment, the line break. */
  private skipLine(): void {
    this.skipComment();
    if (this.pos < this.text.length) this.pos++;
  }
}
