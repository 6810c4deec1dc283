// Log lines from several processes (the workers and the primary of cluster.ts) share one
// stdout. A write of at most PIPE_BUF bytes to a pipe is atomic (POSIX write(2)), and Node
// writes stdout synchronously on Linux when it is a pipe or a file, so handing the logger's
// batch over in pieces of whole lines under that size keeps every line whole. A single line
// longer than PIPE_BUF (a long stack trace) goes out alone and may still interleave.

import type { LogSink } from "./log.js";

/** Linux's PIPE_BUF; POSIX guarantees at least 512. */
const PIPE_BUF = 4096;

export function lineSafeSink(write: (chunk: string) => void = (chunk) => void process.stdout.write(chunk)): LogSink {
  return (chunk) => {
    // Three bytes per UTF-16 unit is the most UTF-8 needs: this skips the count for small batches.
    if (chunk.length * 3 <= PIPE_BUF) {
      write(chunk);
      return;
    }
    for (const piece of pieces(chunk)) write(piece);
  };
}

/** `chunk` (whole lines) cut at line ends into pieces of at most PIPE_BUF bytes where lines allow. */
export function pieces(chunk: string): string[] {
  const out: string[] = [];
  let start = 0;
  let bytes = 0;
  let lineStart = 0;
  while (lineStart < chunk.length) {
    let end = chunk.indexOf("\n", lineStart);
    end = end === -1 ? chunk.length : end + 1;
    const lineBytes = Buffer.byteLength(chunk.slice(lineStart, end));
    if (bytes > 0 && bytes + lineBytes > PIPE_BUF) {
      out.push(chunk.slice(start, lineStart));
      start = lineStart;
      bytes = 0;
    }
    bytes += lineBytes;
    lineStart = end;
  }
  if (start < chunk.length) out.push(chunk.slice(start));
  return out;
}
