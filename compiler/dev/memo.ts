// A map whose entries live as long as builds use them: `svc dev` keeps a few across
// rebuilds, and each build ends with `sweep()`, which drops whatever that build did not
// touch. So the cache never holds more than one build's worth of texts, however long the
// session runs and however many versions of a file were saved along the way.

/** The build under way, shared by every Memo of one cache. */
export interface BuildClock {
  build: number;
}

export class Memo<V> {
  private readonly entries = new Map<string, { value: V; build: number }>();

  constructor(
    private readonly clock: BuildClock,
    /** Called for each entry swept or cleared: e.g. closes a database it holds. */
    private readonly release: (value: V) => void = () => undefined,
  ) {}

  /** The value for `key`, marked as used by this build; undefined when absent. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    entry.build = this.clock.build;
    return entry.value;
  }

  set(key: string, value: V): void {
    const old = this.entries.get(key);
    if (old !== undefined && old.value !== value) this.release(old.value);
    this.entries.set(key, { value, build: this.clock.build });
  }

  /** Drops every entry the current build neither read nor wrote. */
  sweep(): void {
    for (const [key, entry] of this.entries) {
      if (entry.build === this.clock.build) continue;
      this.entries.delete(key);
      this.release(entry.value);
    }
  }

  clear(): void {
    for (const entry of this.entries.values()) this.release(entry.value);
    this.entries.clear();
  }

  values(): V[] {
    return [...this.entries.values()].map((e) => e.value);
  }

  get size(): number {
    return this.entries.size;
  }
}
