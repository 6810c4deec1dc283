// Text in its UTF-8 bytes, one per character of a string: what Node's "latin1" encoding writes
// as they are (templates.ts says why pages are rendered so).

const NOT_ASCII = /[^\x00-\x7f]/;

/** `text` in UTF-8 bytes, one per character; ASCII is its own bytes. */
export function utf8Bytes(text: string): string {
  return NOT_ASCII.test(text) ? Buffer.from(text, "utf8").toString("latin1") : text;
}
