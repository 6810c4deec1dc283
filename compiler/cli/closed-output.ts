// A reader that stops early (`svc build | head -1`) closes the pipe under our output, and the
// next write fails with EPIPE, an 'error' event that, with no listener, ends the process with a
// stack trace in the middle of its work. What was to be printed is only a report: the command
// goes on and finishes its work (a build's files, a deploy's archive) with its own exit code,
// writing nothing more there. Any other output error is still raised.

const CLOSED = new Set(["EPIPE", "ERR_STREAM_DESTROYED"]);

export function tolerateClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (err: NodeJS.ErrnoException) => {
      if (!CLOSED.has(err.code ?? "")) throw err;
    });
  }
}
