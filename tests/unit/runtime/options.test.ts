import { describe, test, expect } from "../../support/jest.js";
import { StartupError } from "../../../runtime/core/errors.js";
import { BUILTIN_DEFAULTS, backendOfUrl, helpText, parseListen, parseServerArgs } from "../../../runtime/start/options.js";
import type { ServerOptions } from "../../../runtime/contract/index.js";
import { availableParallelism } from "node:os";

function options(
  argv: string[],
  env: Record<string, string> = {},
  defaults: Partial<ServerOptions> = {},
): ServerOptions {
  const parsed = parseServerArgs(argv, env, defaults);
  if ("help" in parsed) throw new Error("unexpected help");
  return parsed.options;
}

function startupError(argv: string[], env: Record<string, string> = {}, defaults: Partial<ServerOptions> = {}): string {
  try {
    parseServerArgs(argv, env, defaults);
  } catch (err) {
    if (err instanceof StartupError) return err.message;
    throw err;
  }
  throw new Error("expected a StartupError");
}

describe("server options: defaults and precedence", () => {
  test("no flags, no env, no svc.toml: the built-in defaults", () => {
    expect(options([])).toEqual({
      listen: "127.0.0.1:8080",
      backend: "sqlite",
      db: "svc.db",
      corsOrigin: null,
      readTimeoutMs: 30000,
      writeTimeoutMs: 30000,
      maxBodySize: 1048576,
      workers: availableParallelism(),
      logLevel: "info",
      publicUrl: null,
      trustProxy: false,
      openapi: false,
      serverHeader: null,
      jobs: "on",
      jobsConcurrency: 4,
      metrics: false,
      metricsListen: null,
      metricsToken: null,
    });
    expect(options([])).toEqual(BUILTIN_DEFAULTS);
  });

  test("svc.toml defaults win over built-ins", () => {
    const defaults: Partial<ServerOptions> = {
      listen: "0.0.0.0:9000",
      db: "data/tasks.db",
      maxBodySize: 2048,
      logLevel: "warn",
    };
    expect(options([], {}, defaults)).toEqual({
      ...BUILTIN_DEFAULTS,
      listen: "0.0.0.0:9000",
      backend: "sqlite",
      db: "data/tasks.db",
      maxBodySize: 2048,
      logLevel: "warn",
    });
  });

  test("SVC_LISTEN wins over svc.toml; --listen wins over SVC_LISTEN", () => {
    const defaults = { listen: "127.0.0.1:9000" };
    expect(options([], { SVC_LISTEN: "127.0.0.1:7000" }, defaults).listen).toBe("127.0.0.1:7000");
    expect(options(["--listen", "127.0.0.1:6000"], { SVC_LISTEN: "127.0.0.1:7000" }, defaults).listen).toBe(
      "127.0.0.1:6000",
    );
    expect(options([], { SVC_LISTEN: "" }, defaults).listen).toBe("127.0.0.1:9000");
  });

  test("flags win over svc.toml for every option, in both --flag value and --flag=value forms", () => {
    const defaults: Partial<ServerOptions> = { db: "a.db", maxBodySize: 10, logLevel: "warn", backend: "sqlite" };
    expect(
      options(["--db=b.db", "--max-body-size", "20", "--log-level=trace", "--backend", "sqlite"], {}, defaults),
    ).toEqual({
      ...BUILTIN_DEFAULTS,
      listen: "127.0.0.1:8080",
      backend: "sqlite",
      db: "b.db",
      maxBodySize: 20,
      logLevel: "trace",
    });
  });

  test("the backend is inferred from the --db URL scheme", () => {
    expect(options(["--db", "postgres://u:p@h/db"]).backend).toBe("postgres");
    expect(options(["--db", "postgresql://h/db"]).backend).toBe("postgres");
    expect(options(["--db", "mysql://h/db"]).backend).toBe("mysql");
    expect(options(["--db", "sqlite:data/x.db"]).backend).toBe("sqlite");
    expect(options(["--db", ":memory:"]).backend).toBe("sqlite");
    expect(options(["--db", "mysql://h/db", "--backend", "tidb"]).backend).toBe("tidb");
    // A --db URL from the command line beats a backend remembered in svc.toml.
    expect(options(["--db", "sqlite::memory:"], {}, { backend: "postgres", db: "postgres://h/db" }).backend).toBe(
      "sqlite",
    );
    expect(backendOfUrl("POSTGRES://h/db")).toBe("postgres");
  });

  test("--port 0 is allowed for tests", () => {
    expect(parseListen(options(["--listen", "127.0.0.1:0"]).listen)).toEqual({ host: "127.0.0.1", port: 0 });
  });
});

describe("server options: bad values name the flag", () => {
  test.each([
    [["--listen", "127.0.0.1:70000"], '--listen: port "70000" is not a number from 0 to 65535'],
    [["--listen", "localhost"], '--listen: port "localhost" is not a number from 0 to 65535'],
    [["--listen", "::1:80"], "--listen: write an IPv6 address in brackets, e.g. [::1]:8080"],
    [["--listen=127.0.0.1:-1"], '--listen: port "-1" is not a number from 0 to 65535'],
    [
      ["--log-level", "verbose"],
      '--log-level: unknown log level "verbose"; use one of error, warn, info, debug, trace',
    ],
    [["--max-body-size", "-5"], '--max-body-size: "-5" is not a size in bytes (a whole number, 0 or more)'],
    [["--max-body-size", "1mb"], '--max-body-size: "1mb" is not a size in bytes (a whole number, 0 or more)'],
    [["--backend", "oracle"], '--backend: unknown backend "oracle"; use one of sqlite, postgres, mysql, tidb'],
    [
      ["--backend", "sqlite", "--db", "postgres://h/db"],
      "--backend sqlite does not match --db, which is a postgres: URL",
    ],
    [
      ["--backend", "postgres"],
      "--backend postgres does not match the default --db svc.db, which is a SQLite file path",
    ],
    [["--backend", "postgres", "--db", ":memory:"], "--backend postgres does not match --db, which is an in-memory SQLite database"],
    [["--port", "2"], 'unknown flag "--port"; run with --help to list the flags'],
    [["--listen"], "--listen needs a value <addr:port>"],
    [["--db", "--listen", "x"], "--db needs a value <connection>"],
    [["serve"], 'unexpected argument "serve"; server flags start with --'],
    [["--db", "a.db", "--db", "b.db"], "--db is given more than once"],
    [["--db="], "--db is empty"],
  ])("%j", (argv, message) => {
    expect(startupError(argv)).toBe(message);
  });

  test("--public-url and --trust-proxy win over svc.toml, and bad values are refused", () => {
    const defaults: Partial<ServerOptions> = { publicUrl: "https://a.example", trustProxy: true };
    expect(options([], {}, defaults)).toMatchObject({ publicUrl: "https://a.example", trustProxy: true });
    expect(options(["--public-url", "http://b.example:8080", "--trust-proxy=false"], {}, defaults)).toMatchObject({
      publicUrl: "http://b.example:8080",
      trustProxy: false,
    });
    expect(startupError(["--public-url", "https://a.example/"])).toContain("--public-url");
    expect(startupError(["--public-url", "https://a.example?x=1"])).toContain("is not a public URL");
    expect(startupError(["--trust-proxy", "yes"])).toBe('--trust-proxy: "yes" is not true or false');
    expect(startupError([], {}, { trustProxy: "true" as never })).toContain("svc.toml [server] trust_proxy");
  });

  test("--server-header: none by default, svc.toml's value, a flag wins (empty for none), hostile values refused", () => {
    expect(options([]).serverHeader).toBeNull();
    expect(options([], {}, { serverHeader: "svc" }).serverHeader).toBe("svc");
    expect(options(["--server-header", "svc/1.0 (linux)"], {}, { serverHeader: "svc" }).serverHeader).toBe("svc/1.0 (linux)");
    expect(options(["--server-header="], {}, { serverHeader: "svc" }).serverHeader).toBeNull();
    expect(startupError(["--server-header", "svc\r\nSet-Cookie: a=b"])).toContain("--server-header must be a product name");
    expect(startupError(["--server-header", " svc"])).toContain("--server-header");
    expect(startupError(["--server-header", "é"])).toContain("--server-header");
    expect(startupError(["--server-header", "x".repeat(129)])).toContain("--server-header");
    expect(startupError([], {}, { serverHeader: "a\nb" })).toContain("svc.toml [server] header");
  });

  test("a bad SVC_LISTEN names the variable", () => {
    expect(startupError([], { SVC_LISTEN: "nope:x" })).toBe('SVC_LISTEN: port "x" is not a number from 0 to 65535');
  });

  test("a bad svc.toml default names its key", () => {
    expect(startupError([], {}, { logLevel: "loud" as never })).toContain("svc.toml [server] log_level");
    expect(startupError([], {}, { maxBodySize: -1 })).toContain("svc.toml [server] max_body_size");
    expect(startupError([], {}, { listen: "x:99999" })).toContain("svc.toml [server] listen");
    expect(startupError([], {}, { backend: "db2" as never })).toContain("svc.toml [database] backend");
  });
});

describe("listen addresses", () => {
  test.each([
    ["127.0.0.1:8080", { host: "127.0.0.1", port: 8080 }],
    ["0.0.0.0:80", { host: "0.0.0.0", port: 80 }],
    ["localhost:3000", { host: "localhost", port: 3000 }],
    ["[::1]:8080", { host: "::1", port: 8080 }],
    [":9000", { host: "127.0.0.1", port: 9000 }],
    ["9000", { host: "127.0.0.1", port: 9000 }],
  ])("%s", (text, expected) => {
    expect(parseListen(text)).toEqual(expected);
  });
});

describe("--help", () => {
  test("lists every flag with the default it would take", () => {
    const parsed = parseServerArgs(["--db", "x.db", "--help"], { SVC_LISTEN: "127.0.0.1:7000" }, { maxBodySize: 2048 });
    expect("help" in parsed).toBe(true);
    const text = "help" in parsed ? parsed.help : "";
    for (const flag of ["--listen", "--backend", "--db", "--max-body-size", "--log-level", "--help"])
      expect(text).toContain(flag);
    expect(text).toContain("(default: 127.0.0.1:7000)");
    expect(text).toContain("(default: 2048)");
    expect(text).toContain("(default: svc.db)");
    expect(text).toContain("(default: info)");
  });

  test("-h is --help", () => {
    expect("help" in parseServerArgs(["-h"], {}, {})).toBe(true);
    expect(helpText({}).startsWith("Server flags:")).toBe(true);
  });
});

describe("--jobs and --jobs-concurrency", () => {
  test("each mode is taken; anything else is refused naming the flag", () => {
    for (const mode of ["on", "off", "only"] as const) expect(options(["--jobs", mode]).jobs).toBe(mode);
    expect(() => options(["--jobs", "sometimes"])).toThrow(/--jobs must be on, off or only/);
  });

  test("a concurrency from 1 to 256", () => {
    expect(options(["--jobs-concurrency", "16"]).jobsConcurrency).toBe(16);
    expect(() => options(["--jobs-concurrency", "0"])).toThrow(/--jobs-concurrency must be a whole number from 1 to 256/);
    expect(() => options(["--jobs-concurrency", "257"])).toThrow(/from 1 to 256/);
    expect(() => options(["--jobs-concurrency", "many"])).toThrow(/--jobs-concurrency/);
  });
});

describe("metrics options", () => {
  test("--metrics wins over SVC_METRICS, which wins over [server] metrics", () => {
    expect(options([]).metrics).toBe(false);
    expect(options([], {}, { metrics: true }).metrics).toBe(true);
    expect(options([], { SVC_METRICS: "false" }, { metrics: true }).metrics).toBe(false);
    expect(options([], { SVC_METRICS: "true" }).metrics).toBe(true);
    expect(options(["--metrics=false"], { SVC_METRICS: "true" }).metrics).toBe(false);
    expect(options(["--metrics"], { SVC_METRICS: "false" }).metrics).toBe(true);
    expect(startupError([], { SVC_METRICS: "yes" })).toBe('SVC_METRICS: "yes" is not true or false');
  });

  test("--metrics-listen is an address; metrics_token only comes from svc.toml, as a credential's name", () => {
    expect(options(["--metrics-listen", "10.0.0.5:9464"]).metricsListen).toBe("10.0.0.5:9464");
    expect(options([], {}, { metricsListen: ":9464" }).metricsListen).toBe(":9464");
    expect(startupError(["--metrics-listen", "nowhere"])).toMatch(/--metrics-listen/);
    expect(options([], {}, { metricsToken: "scrape" }).metricsToken).toBe("scrape");
    expect(startupError(["--metrics-token", "x"])).toMatch(/unknown flag/);
  });
});
