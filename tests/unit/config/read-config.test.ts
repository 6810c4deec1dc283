import { describe, test, expect } from "../../support/jest.js";
import { backendOfUrl, defaultConfig, readConfig } from "../../../compiler/project/config.js";
import type { Diagnostic } from "../../../compiler/diagnostics/diagnostic.js";

/** "CODE line:col" for each diagnostic, in the order readConfig returns them. */
function found(text: string): string[] {
  return readConfig("svc.toml", text).diagnostics.map(
    (d) => `${d.code} ${d.span ? `${d.span.start.line}:${d.span.start.column}` : "-"}`,
  );
}

function only(text: string): Diagnostic {
  const { diagnostics } = readConfig("svc.toml", text);
  expect(diagnostics).toHaveLength(1);
  return diagnostics[0];
}

const FULL = `
[project]
name = "task_tracker"
version = "1.2.3"

[modules]
dirs = ["modules/*", "vendor/billing"]

[app]
dir = "web"

[database]
backend = "postgres"
url = "postgres://svc:secret@127.0.0.1:5432/tasks"

[server]
listen = "127.0.0.1:8080"
cors_origin = "https://example.com"
read_timeout_ms = 30000
write_timeout_ms = 15000
max_body_size = 1048576
workers = 2
log_level = "debug"
public_url = "https://api.example.com"
trust_proxy = true
openapi = true

[credentials]
github_webhook = { env = "GITHUB_WEBHOOK_SECRET" }
api_tokens = { file = "/run/secrets/api_tokens" }
deploy_token = { env = "DEPLOY_TOKEN" }

[auth]
bearer = { credential = "api_tokens" }

[deploy]
url = "https://deploy.example.com/v1/upload"
token = { credential = "deploy_token" }

[errors]
body = { errors = { body = ["{message}"], status = "{status}" } }
validation_status = 422

[uploads]
store = "database"
dir = "var/uploads"
max_file_size = 2097152
max_files = 4
max_request_size = 8388608

[events]
first_retry_ms = 500
max_retry_ms = 60000
max_attempts = 8
timeout_ms = 5000
poll_ms = 1000

[events.subscribers.crm]
url = "https://crm.example.com/hooks/svc"
secret = "github_webhook"
events = ["task_completed", "*"]
`;

describe("readConfig: accepted input", () => {
  test("every key of docs/language.md §1, each with its type", () => {
    const { config, diagnostics } = readConfig("svc.toml", FULL);
    expect(diagnostics).toEqual([]);
    expect(config).toEqual({
      project: { name: "task_tracker", version: "1.2.3" },
      modules: { dirs: ["modules/*", "vendor/billing"] },
      app: { dir: "web" },
      database: { backend: "postgres", url: "postgres://svc:secret@127.0.0.1:5432/tasks" },
      server: {
        listen: "127.0.0.1:8080",
        cors_origin: "https://example.com",
        read_timeout_ms: 30000,
        write_timeout_ms: 15000,
        max_body_size: 1048576,
        workers: 2,
        log_level: "debug",
        public_url: "https://api.example.com",
        trust_proxy: true,
        openapi: true,
      },
      credentials: {
        github_webhook: { env: "GITHUB_WEBHOOK_SECRET" },
        api_tokens: { file: "/run/secrets/api_tokens" },
        deploy_token: { env: "DEPLOY_TOKEN" },
      },
      auth: { bearer: { credential: "api_tokens" } },
      deploy: { url: "https://deploy.example.com/v1/upload", token: { credential: "deploy_token" } },
      errors: { body: { errors: { body: ["{message}"], status: "{status}" } }, validation_status: 422 },
      uploads: { store: "database", dir: "var/uploads", max_file_size: 2097152, max_files: 4, max_request_size: 8388608 },
      events: {
        subscribers: {
          crm: { url: "https://crm.example.com/hooks/svc", secret: "github_webhook", events: ["task_completed", "*"], eventSpans: [expect.any(Object), expect.any(Object)] },
        },
        first_retry_ms: 500,
        max_retry_ms: 60000,
        max_attempts: 8,
        timeout_ms: 5000,
        poll_ms: 1000,
        file: "svc.toml",
        at: expect.any(Object),
      },
    });
    expect(typeof config.server.workers).toBe("number");
  });

  test("[errors] and the public URL: mistakes are reported where they are written", () => {
    expect(found('[errors]\nbody = { errors = ["{code}"] }\n')).toEqual(["SVC7105 2:8"]);
    expect(only('[errors]\nbody = { error = "oops" }\n').message).toBe(
      "the error body never shows {message}, so a client would not learn what went wrong",
    );
    expect(only('[errors]\nbody = { at = 1979-05-27T07:32:00Z, m = "{message}" }\n').code).toBe("SVC4003");
    expect(only("[errors]\nvalidation_status = 200\n").code).toBe(only("[server]\nworkers = 0\n").code);
    expect(only('[server]\npublic_url = "https://api.example.com/"\n').hint).toBe("write https://api.example.com");
    expect(only('[server]\npublic_url = "ftp://x"\n').code).toBe(only('[server]\ncors_origin = "x"\n').code);
    expect(only('[server]\ntrust_proxy = "true"\n').hint).toBe("write it without quotes: true");
  });

  test("[events]: a subscriber's mistakes are reported where they are written", () => {
    const sub = (body: string) => `[credentials]\ncrm_hook = { env = "CRM" }\n[events.subscribers.crm]\n${body}`;
    expect(found(sub('url = "https://crm.example.com/h"\nsecret = "crm_hook"\nevents = ["a"]\n'))).toEqual([]);
    expect(found(sub('secret = "crm_hook"\nevents = ["a"]\n'))).toEqual(["SVC4008 3:21"]);
    expect(only(sub('url = "ftp://crm.example.com"\nsecret = "crm_hook"\nevents = ["a"]\n')).message).toMatch(/http:\/\/ or https:\/\//);
    expect(found(sub('url = "https://crm.example.com/h"\nsecret = "crm"\nevents = ["a"]\n'))).toEqual(["SVC4009 5:10"]);
    expect(only(sub('url = "https://crm.example.com/h"\nsecret = "crm_hook"\nevents = ["a b"]\n')).message).toMatch(/an event name/);
    expect(only('[events]\nmax_attempts = 0\n').code).toBe(only('[server]\nworkers = 0\n').code);
    expect(only('[events]\nretries = 3\n').code).toBe(only("[server]\nlisten2 = 1\n").code);
  });

  test("[server] header: a product name, never a line break or a long or non-ASCII value", () => {
    expect(readConfig("svc.toml", '[server]\nheader = "svc/0.1 (linux)"\n').diagnostics).toEqual([]);
    expect(readConfig("svc.toml", '[server]\nheader = "svc"\n').config.server.header).toBe("svc");
    for (const bad of ['"svc\\r\\nX-Evil: 1"', '" svc"', '"zoë"', `"${"x".repeat(129)}"`]) {
      expect(only(`[server]\nheader = ${bad}\n`).message).toMatch(/a product name of visible ASCII/);
    }
    expect(only("[server]\nheader = 1\n").code).toBe("SVC4003");
    expect(only('[server]\nheader = ""\n').message).toMatch(/non-empty string/);
    expect(only('[server]\nheader = "svc\\nX-Evil: 1"\n').message).toMatch(/product name/);
  });

  test("an empty file gives the defaults", () => {
    const { config, diagnostics } = readConfig("svc.toml", "# nothing yet\n");
    expect(diagnostics).toEqual([]);
    expect(config).toEqual(defaultConfig());
    expect(config.project.version).toBe("0.1.0");
    expect(config.modules.dirs).toEqual(["modules/*"]);
    expect(config.app.dir).toBe("app");
  });

  test("dotted keys and table headers read the same as inline tables", () => {
    const text = 'server.workers = 3\n[credentials.gh]\nenv = "GH"\n[auth]\nbearer.credential = "gh"\n';
    const { config, diagnostics } = readConfig("svc.toml", text);
    expect(diagnostics).toEqual([]);
    expect(config.server.workers).toBe(3);
    expect(config.credentials).toEqual({ gh: { env: "GH" } });
    expect(config.auth.bearer).toEqual({ credential: "gh" });
  });

  test("every listen form, origin and database URL that should pass", () => {
    for (const listen of ["127.0.0.1:8080", "0.0.0.0:80", "localhost:0", "[::1]:3000"]) {
      expect(found(`[server]\nlisten = "${listen}"`)).toEqual([]);
    }
    expect(found('[server]\ncors_origin = "*"')).toEqual([]);
    expect(found('[server]\ncors_origin = "http://localhost:5173"')).toEqual([]);
    for (const [backend, url] of [
      ["sqlite", "sqlite:data/tasks.db"],
      ["sqlite", "data/tasks.db"],
      ["sqlite", ":memory:"],
      ["postgres", "postgresql://u@h/db"],
      ["mysql", "mysql://u@h/db"],
      ["tidb", "mysql://u@h:4000/db"],
      ["tidb", "tidb://u@h:4000/db"],
    ]) {
      expect(found(`[database]\nbackend = "${backend}"\nurl = "${url}"`)).toEqual([]);
    }
  });

  test("a byte order mark is accepted and positions stay put", () => {
    expect(found('\uFEFF[server]\nlistn = "x"')).toEqual(["SVC4002 2:1"]);
  });

  test("backendOfUrl names the backend of a URL", () => {
    expect(backendOfUrl("postgres://x")).toBe("postgres");
    expect(backendOfUrl("MYSQL://x")).toBe("mysql");
    expect(backendOfUrl("C:/data/app.db")).toBe("sqlite");
    expect(backendOfUrl("file:app.db")).toBe("sqlite");
    expect(backendOfUrl("redis://x")).toBeNull();
  });
});

describe("readConfig: each kind of bad input, at its line and column", () => {
  test("TOML syntax error at smol-toml's position", () => {
    const d = only('[server]\nlisten = "127.0.0.1:8080"\nworkers = \n');
    expect(d.code).toBe("SVC4001");
    expect([d.span?.start.line, d.span?.start.column]).toEqual([3, 11]);
    expect(d.message).toMatch(/^svc\.toml is not valid TOML: /);
    expect(d.message).not.toContain("\n");
  });

  test("a duplicate key is a syntax error at the second one", () => {
    const d = only("[server]\nworkers = 1\nworkers = 2\n");
    expect(d.code).toBe("SVC4001");
    expect(d.span?.start.line).toBe(3);
  });

  test("unknown key in a table, with a did-you-mean", () => {
    const d = only('[server]\n  listn = "127.0.0.1:1"\n');
    expect(d).toMatchObject({ code: "SVC4002", message: "unknown key server.listn", hint: "did you mean `listen`?" });
    expect(d.span?.start).toEqual({ offset: 11, line: 2, column: 3 });
    expect(d.span?.end.column).toBe(8);
  });

  test("unknown table, and unknown key without a close match lists the known ones", () => {
    expect(only("[databse]\nurl = 'x'\n")).toMatchObject({
      code: "SVC4002",
      message: "unknown key databse",
      hint: "did you mean `database`?",
      span: { start: { line: 1, column: 2 } },
    });
    expect(only("[app]\nzzz = 1\n").hint).toBe("known keys here: dir");
  });

  test("unknown keys inside inline tables and dotted keys", () => {
    expect(found('[credentials]\ngh = { envv = "GH" }\n')).toEqual(["SVC4002 2:8"]);
    expect(found("server.wrkers = 2\n")).toEqual(["SVC4002 1:8"]);
    expect(found('[auth]\nbearer = { credential = "x", role = "y" }\n[credentials]\nx = { env = "X" }\n')).toEqual([
      "SVC4002 2:30",
    ]);
  });

  test("wrong types point at the value", () => {
    const d = only('[server]\nworkers = "2"\n');
    expect(d).toMatchObject({
      code: "SVC4003",
      message: "server.workers must be an integer, found a string",
      hint: "write it without quotes: 2",
      span: { start: { line: 2, column: 11 }, end: { line: 2, column: 14 } },
    });
    expect(only("[server]\nworkers = 2.0\n").message).toBe("server.workers must be an integer, found a float");
    expect(only("[server]\nlisten = 8080\n").hint).toBe('put it in quotes: "8080"');
    expect(found("server = 5\n")).toEqual(["SVC4003 1:10"]);
    expect(found('[modules]\ndirs = "modules/*"\n')).toEqual(["SVC4003 2:8"]);
    expect(found("[modules]\ndirs = ['a', 1]\n")).toEqual(["SVC4003 2:14"]);
    expect(found("[[server]]\nworkers = 1\n")).toEqual(["SVC4003 1:3"]);
    expect(found("[credentials]\ngh = 'GH'\n")).toEqual(["SVC4003 2:6"]);
  });

  test("numbers out of range", () => {
    const d = only("[server]\nread_timeout_ms = -5\n");
    expect(d).toMatchObject({ code: "SVC4005", span: { start: { line: 2, column: 19 } } });
    expect(d.message).toBe("server.read_timeout_ms must be between 1 and 2147483647, found -5");
    expect(found("[server]\nworkers = 0\nmax_body_size = 0\nwrite_timeout_ms = 9999999999\n")).toEqual([
      "SVC4005 2:11",
      "SVC4005 3:17",
      "SVC4005 4:20",
    ]);
    expect(found("[uploads]\nmax_files = 0\nmax_file_size = 0\nmax_request_size = -1\n")).toEqual(["SVC4005 2:13", "SVC4005 3:17", "SVC4005 4:20"]);
  });

  test("a switch takes a boolean", () => {
    expect(only('[server]\nopenapi = "yes"\n')).toMatchObject({ code: "SVC4003", span: { start: { line: 2, column: 11 } } });
  });

  test("values outside a fixed set", () => {
    expect(only('[server]\nlog_level = "loud"\n')).toMatchObject({
      code: "SVC4004",
      message: "server.log_level must be one of error, warn, info, debug, trace; found `loud`",
      span: { start: { line: 2, column: 13 } },
    });
    expect(only('[database]\nbackend = "oracle"\n')).toMatchObject({
      code: "SVC4004",
      span: { start: { line: 2, column: 11 } },
    });
    expect(only('[database]\nbackend = "postgre"\n').hint).toBe("did you mean `postgres`?");
    expect(only('[uploads]\nstore = "s3"\n')).toMatchObject({
      code: "SVC4004",
      message: "uploads.store must be one of disk, database; found `s3`",
      span: { start: { line: 2, column: 9 } },
    });
  });

  test("strings that do not have the form their key needs", () => {
    expect(found('[server]\nlisten = "8080"\n')).toEqual(["SVC4006 2:10"]);
    expect(found('[server]\nlisten = "host:99999"\n')).toEqual(["SVC4006 2:10"]);
    expect(only('[server]\ncors_origin = "https://example.com/"\n').hint).toBe(
      "an origin has no path: https://example.com",
    );
    expect(found('[deploy]\nurl = "ftp://x"\n')).toEqual(["SVC4006 2:7"]);
    expect(found('[project]\nname = ""\n')).toEqual(["SVC4006 2:8"]);
    expect(found('[modules]\ndirs = ["modules/*", "src/**"]\n')).toEqual(["SVC4006 2:22"]);
    expect(found('[credentials]\ngh = { env = "NOT A NAME" }\n')).toEqual(["SVC4006 2:14"]);
  });

  test("invalid keys keep their defaults; valid keys beside them are read", () => {
    const { config } = readConfig("svc.toml", '[server]\nworkers = "2"\nlisten = "127.0.0.1:1"\n[modules]\ndirs = 3\n');
    expect(config.server).toEqual({ listen: "127.0.0.1:1" });
    expect(config.modules.dirs).toEqual(["modules/*"]);
  });

  test("a credential with neither or both sources", () => {
    const both = only('[credentials]\ngh = { env = "GH", file = "/x" }\n');
    expect(both).toMatchObject({
      code: "SVC4007",
      message: "credentials.gh names both env and file; a credential has one source",
      span: { start: { line: 2, column: 6 } },
    });
    expect(only("[credentials]\ngh = {}\n").message).toBe("credentials.gh names no source");
    expect(found('[credentials.gh]\nenv = "A"\nfile = "b"\n')).toEqual(["SVC4007 1:14"]);
  });

  test("a credential name that is not an identifier", () => {
    expect(only('[credentials]\n"api-tokens" = { env = "X" }\n')).toMatchObject({
      code: "SVC4012",
      span: { start: { line: 2, column: 1 }, end: { line: 2, column: 13 } },
    });
  });

  test("a credential reference without its key", () => {
    expect(only("[auth]\nbearer = {}\n")).toMatchObject({
      code: "SVC4008",
      message: "auth.bearer needs the key credential",
      span: { start: { line: 2, column: 10 } },
    });
  });

  test("a reference to an undeclared credential is a warning at the name", () => {
    const d = only('[credentials]\napi_token = { env = "T" }\n[auth]\nbearer = { credential = "api_tokens" }\n');
    expect(d).toMatchObject({
      code: "SVC4009",
      severity: "warning",
      hint: "did you mean `api_token`?",
      span: { start: { line: 4, column: 25 } },
    });
    const far = only('[deploy]\ntoken = { credential = "deploy" }\n');
    expect(far.message).toBe(
      "deploy.token.credential names the credential `deploy`, which [credentials] does not declare",
    );
    expect(far.hint).toContain("SVC_CREDENTIAL_DEPLOY");
  });

  test("a database URL that contradicts the backend, or names no database", () => {
    expect(only('[database]\nbackend = "sqlite"\nurl = "postgres://h/db"\n')).toMatchObject({
      code: "SVC4010",
      message: "database.url is a postgres URL, but database.backend is `sqlite`",
      span: { start: { line: 3, column: 7 } },
    });
    expect(found('[database]\nbackend = "postgres"\nurl = "mysql://h/db"\n')).toEqual(["SVC4010 3:7"]);
    expect(found('[database]\nurl = "redis://h"\n')).toEqual(["SVC4011 2:7"]);
  });

  test("diagnostics come sorted by position", () => {
    const text = '[server]\nworkers = "x"\nlistn = 1\n[project]\nnme = "x"\n';
    expect(found(text)).toEqual(["SVC4003 2:11", "SVC4002 3:1", "SVC4002 5:1"]);
  });
});
