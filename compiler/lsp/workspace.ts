// The projects the editor has open, and when each is checked. An edit schedules a check of
// its project after a short quiet time (the debounce), so a burst of keystrokes costs one
// check; a request that needs the symbol table runs a pending check first, so an answer
// never reads names from before the edit it follows.

import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { Diagnostic as LspDiagnostic } from "vscode-languageserver";
import { resolveTarget } from "../cli/target.js";
import { type Diagnostic, hasErrors, sortDiagnostics } from "../diagnostics/diagnostic.js";
import type { DiscoverTarget } from "../project/discover.js";
import { diagnosticPath, toLspDiagnostic } from "./convert.js";
import { OverlayFs } from "./overlay-fs.js";
import { Project } from "./project.js";

export interface WorkspaceOptions {
  /** Quiet time after an edit before the check runs. */
  debounceMs: number;
  /** Also ask the live database of svc.toml's `[database] url` about every statement, on open and on save. */
  liveDatabase: boolean;
}

export interface WorkspaceEvents {
  publish(absPath: string, diagnostics: LspDiagnostic[]): Promise<void>;
  /** After the diagnostics of a check were all published; `cpuMs` is the CPU time the check took. */
  checked(project: Project, cpuMs: number): void;
  log(message: string): void;
}

export class Workspace {
  readonly fs = new OverlayFs();
  private readonly projects = new Map<string, Project>();
  private readonly pending = new Map<Project, NodeJS.Timeout>();
  /** Diagnostics the live database gave on the last open or save; dropped at the next edit. */
  private readonly live = new Map<Project, Diagnostic[]>();
  folders: string[] = [];

  constructor(
    readonly options: WorkspaceOptions,
    private readonly events: WorkspaceEvents,
  ) {}

  /** Checks every workspace folder that holds a project, so its diagnostics show before any file is opened. */
  addFolders(folders: readonly string[]): void {
    for (const f of folders) {
      if (this.folders.includes(f)) continue;
      this.folders.push(f);
      if (holdsProject(f)) this.checkNow(this.projectOf(targetOfFolder(f)));
    }
  }

  removeFolder(folder: string): void {
    this.folders = this.folders.filter((f) => f !== folder);
  }

  open(file: string, text: string): void {
    this.fs.open.set(file, text);
    const p = this.projectFor(file);
    this.checkNow(p);
    this.liveCheck(p);
  }

  change(file: string, text: string): void {
    this.fs.open.set(file, text);
    const p = this.projectFor(file);
    this.live.delete(p);
    this.schedule(p);
  }

  /** A file that is not open changed on disk: its project is checked again. */
  changedOnDisk(file: string): void {
    this.schedule(this.projectFor(file));
  }

  save(file: string): void {
    this.liveCheck(this.projectFor(file));
  }

  /** The user turned the live check on or off; off, what the database said last is taken back at once. */
  setLiveDatabase(on: boolean): void {
    this.options.liveDatabase = on;
    if (on) return;
    const had = [...this.live.keys()];
    this.live.clear();
    for (const p of had) this.checkNow(p);
  }

  /** A live check that fails in a way svc check --db does not report (a driver that will not load) is logged, never thrown. */
  private liveCheck(p: Project): void {
    this.checkLive(p).catch((e: unknown) => this.events.log(`svc: the live database check failed: ${e instanceof Error ? e.message : String(e)}`));
  }

  close(file: string): void {
    this.fs.open.delete(file);
    this.schedule(this.projectFor(file));
  }

  /** The project of a file, checked as the editor has it now. */
  current(file: string): Project {
    const p = this.projectFor(file);
    if (this.pending.has(p) || p.result === null) this.checkNow(p);
    return p;
  }

  dispose(): void {
    for (const t of this.pending.values()) clearTimeout(t);
    this.pending.clear();
    for (const p of this.projects.values()) p.dispose();
  }

  // ---------------------------------------------------------------- checks

  private schedule(p: Project): void {
    const old = this.pending.get(p);
    if (old) clearTimeout(old);
    this.pending.set(
      p,
      setTimeout(() => this.checkNow(p), this.options.debounceMs),
    );
  }

  private checkNow(p: Project): void {
    const timer = this.pending.get(p);
    if (timer) clearTimeout(timer);
    this.pending.delete(p);
    const cpu = process.cpuUsage();
    const result = p.check();
    const used = process.cpuUsage(cpu);
    this.publish(p, sortDiagnostics([...result.diagnostics, ...(this.live.get(p) ?? [])]), (used.user + used.system) / 1000);
  }

  private publish(p: Project, diagnostics: readonly Diagnostic[], cpuMs = 0): void {
    const byFile = new Map<string, LspDiagnostic[]>();
    for (const d of diagnostics) {
      const file = diagnosticPath(p.root, d.file);
      const list = byFile.get(file);
      if (list) list.push(toLspDiagnostic(d));
      else byFile.set(file, [toLspDiagnostic(d)]);
    }
    // Open files of the project get an answer even when it is empty: the editor then knows the check ran.
    for (const file of this.fs.open.keys()) if (!byFile.has(file) && this.projectFor(file) === p) byFile.set(file, []);
    for (const file of p.published) if (!byFile.has(file)) byFile.set(file, []);
    const sent = [...byFile].map(([file, list]) => this.events.publish(file, list));
    p.published = new Set([...byFile].filter(([, list]) => list.length > 0).map(([file]) => file));
    // The protocol library may hold a notification back; `checked` goes out only after every publish did.
    void Promise.all(sent).then(() => this.events.checked(p, cpuMs));
  }

  /** `svc check --db` on the project's own database URL, when the user enabled it and the SQL is otherwise clean. */
  private async checkLive(p: Project): Promise<void> {
    if (!this.options.liveDatabase) return;
    const result = this.current(path.join(p.root, "svc.toml"));
    const model = result.result?.model;
    const backend = model?.defaults.backend;
    const url = model?.defaults.db;
    if (!model || !url || (backend !== "postgres" && backend !== "mysql" && backend !== "tidb" && backend !== "sqlite")) return;
    // A SQLite file is found from the project's folder, where `svc build` and the server are run.
    const db = backend === "sqlite" ? sqliteFileOf(url, p.root) : url;
    if (db === null || hasErrors(result.result!.diagnostics)) return;
    const { checkAgainstDatabase } = await import("../cli/commands/check-db.js");
    const found = (await checkAgainstDatabase(result.result!, db, backend)).diagnostics;
    this.events.log(`svc: the live database reported ${found.length} diagnostic(s)`);
    this.live.set(p, found);
    this.publish(p, sortDiagnostics([...p.result!.diagnostics, ...found]));
  }

  // ---------------------------------------------------------------- where a file belongs

  private projectFor(file: string): Project {
    return this.projectOf(this.targetFor(file));
  }

  private projectOf(target: DiscoverTarget): Project {
    const key = `${target.mode}:${target.dir}`;
    let p = this.projects.get(key);
    if (!p) {
      p = new Project(target, this.fs);
      this.projects.set(key, p);
    }
    return p;
  }

  /** The nearest folder above the file with svc.toml; else the innermost workspace folder holding it; else the file's own folder, as a module. */
  private targetFor(file: string): DiscoverTarget {
    for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
      if (existsSync(path.join(dir, "svc.toml"))) return { mode: "project", dir };
      if (path.dirname(dir) === dir) break;
    }
    const folder = this.folders
      .filter((f) => file.startsWith(f + path.sep))
      .sort((a, b) => b.length - a.length)[0];
    if (folder !== undefined) return targetOfFolder(folder);
    return { mode: "module", dir: path.dirname(file) };
  }
}

function targetOfFolder(folder: string): DiscoverTarget {
  const t = resolveTarget({ positional: folder });
  return typeof t === "string" ? { mode: "module", dir: folder } : { ...t, dir: folder };
}

/** A folder svc could check: svc.toml, `.svc` files, or a subfolder with some (an app of modules). */
function holdsProject(folder: string): boolean {
  const svcIn = (dir: string) => {
    try {
      return readdirSync(dir).some((f) => f.endsWith(".svc"));
    } catch {
      return false;
    }
  };
  if (existsSync(path.join(folder, "svc.toml")) || svcIn(folder)) return true;
  try {
    return readdirSync(folder).some((f) => {
      const sub = path.join(folder, f);
      return statSync(sub).isDirectory() && svcIn(sub);
    });
  } catch {
    return false;
  }
}

/** svc.toml's SQLite database as a file path from `root`; null for `:memory:`, which has nothing to check. */
function sqliteFileOf(url: string, root: string): string | null {
  let file = url.trim();
  if (file.toLowerCase().startsWith("sqlite:")) file = file.slice("sqlite:".length).replace(/^\/\//, "");
  if (file === "" || file === ":memory:") return null;
  return path.resolve(root, file);
}
