// Reads V8's `--trace-gc-nvp` lines (one name=value line per collection) from a server's output
// and adds up what the garbage collector did between two moments: how many young-generation
// collections (scavenges) and full ones (mark-compacts) ran, and how many bytes the scavenges
// moved to the old generation. Bytes moved there stay until a mark-compact, however briefly
// they were needed, which is what `bench:backends -- --gc` compares between servers.

export interface GcTally {
  scavenges: number;
  markCompacts: number;
  /** Bytes the scavenges promoted to the old generation. */
  promotedBytes: number;
}

export type GcEvent = { kind: "scavenge"; promoted: number } | { kind: "mark-compact" };

/** One `--trace-gc-nvp` line, or null for any other output line. */
export function parseGcLine(line: string): GcEvent | null {
  const kind = / gc=(\w+) /.exec(line)?.[1];
  if (kind === "s") {
    const promoted = / promoted=(\d+) /.exec(line)?.[1];
    return promoted === undefined ? null : { kind: "scavenge", promoted: Number(promoted) };
  }
  if (kind === "mc") return { kind: "mark-compact" };
  return null;
}

/** Fed a server's output as it arrives; `take()` returns what was collected since the last take. */
export class GcCollector {
  private partial = "";
  private tally: GcTally = { scavenges: 0, markCompacts: 0, promotedBytes: 0 };

  feed(text: string): void {
    const lines = (this.partial + text).split("\n");
    this.partial = lines.pop() ?? "";
    for (const line of lines) {
      const event = parseGcLine(line);
      if (event?.kind === "scavenge") {
        this.tally.scavenges++;
        this.tally.promotedBytes += event.promoted;
      } else if (event?.kind === "mark-compact") {
        this.tally.markCompacts++;
      }
    }
  }

  take(): GcTally {
    const taken = this.tally;
    this.tally = { scavenges: 0, markCompacts: 0, promotedBytes: 0 };
    return taken;
  }
}
