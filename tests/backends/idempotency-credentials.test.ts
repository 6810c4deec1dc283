// Attacks on the Idempotency-Key store of examples/accounts (issue 30 part 1), on SQLite,
// PostgreSQL and MariaDB: a sign-in sent with a key must leave nothing in
// svc_idempotency_keys that tests a password guess or carries the token; a second
// anonymous client that learns the key gets neither the first client's answer nor a fast
// "different request" 422; two signed-in callers' keys never meet.

import { createHash, randomUUID } from "node:crypto";
import { join } from "node:path";
import Database from "better-sqlite3";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { SECRET } from "../auth/support.js";
import { type Answer, call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, removeDir, startServer } from "../support/server.js";
import { buildServer } from "./support/build.js";
import { type Namespace, backendAvailable, createNamespace } from "./support/databases.js";

const BACKENDS = ["sqlite", "postgres", "mysql"] as const;
type Backend = (typeof BACKENDS)[number];
const available: Record<Backend, boolean> = {
  sqlite: true,
  postgres: await backendAvailable("postgres"),
  mysql: await backendAvailable("mysql"),
};

const EMAIL = "victim@example.com";
const PASSWORD = "correct horse battery";
/** What an attacker would try: common passwords, and the right one among them. */
const GUESSES = ["123456", "password", "qwerty123", "letmein!", "iloveyou", "admin123", "welcome1", PASSWORD, "correct horse", "dragon12"];

let dir: string;
const servers: TestServer[] = [];
const namespaces: Namespace[] = [];

beforeAll(async () => {
  dir = await buildServer({ mode: "project", dir: join(repoRoot, "examples", "accounts") }, "idemcred-");
});

afterAll(async () => {
  for (const s of servers) await s.stop();
  for (const ns of namespaces) await ns.drop();
  removeDir(dir);
});

interface Setup {
  server: TestServer;
  /** Every row of svc_idempotency_keys, every column, as a reader of a dump would see it. */
  dump(): Promise<Record<string, unknown>[]>;
}

async function setUp(backend: Backend): Promise<Setup> {
  let db: string;
  let read: (sql: string) => Promise<Record<string, unknown>[]>;
  if (backend === "sqlite") {
    db = join(dir, `cred-${Date.now()}.db`);
    read = async (sql) => {
      const conn = new Database(db, { readonly: true });
      try {
        return conn.prepare(sql).all() as Record<string, unknown>[];
      } finally {
        conn.close();
      }
    };
  } else {
    const ns = await createNamespace(backend, `idemcred_${backend}`);
    namespaces.push(ns);
    db = ns.url;
    read = (sql) => ns.admin(sql);
  }
  const server = await startServer(dir, ["--backend", backend, "--db", db], { JWT_SECRET: SECRET });
  servers.push(server);
  return { server, dump: () => read("SELECT * FROM svc_idempotency_keys") };
}

function signIn(s: Setup, key: string, password: string, headers: Record<string, string> = {}): Promise<Answer> {
  return call(`${s.server.url}/api/users/login`, { json: { email: EMAIL, password }, headers: { "idempotency-key": key, ...headers } });
}

/** The same sign-in, sent by another client: its connection comes from 127.0.0.2. */
function signInElsewhere(s: Setup, key: string, password: string): Promise<Answer> {
  const body = JSON.stringify({ email: EMAIL, password });
  return new Promise((resolve, reject) => {
    const req = request(
      `${s.server.url}/api/users/login`,
      { method: "POST", localAddress: "127.0.0.2", headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), "idempotency-key": key } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text, json: JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** JSON with sorted keys, as the store canonicalized a request before. */
function canonical(value: Record<string, string>): string {
  return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${JSON.stringify(value[k])}`).join(",")}}`;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** What an attacker holding a dump computes for one guess: fast hashes of every plausible form of the request. */
function attackerDigests(password: string): string[] {
  const body = { email: EMAIL, password };
  return [
    sha256(`POST\n/api/users/login\n${canonical(body)}\nfalse`),
    sha256(`POST\n/api/users/login\n${canonical(body)}`),
    sha256(canonical(body)),
    sha256(JSON.stringify(body)),
    sha256(`${EMAIL}${password}`),
    sha256(password),
  ];
}

function flatten(rows: Record<string, unknown>[]): string[] {
  return rows.flatMap((r) => Object.values(r).map((v) => String(v)));
}

for (const backend of BACKENDS) {
  (available[backend] ? describe : describe.skip)(`${backend}: a sign-in sent with an Idempotency-Key`, () => {
    let s: Setup;
    const key = randomUUID();
    let first: Answer;

    beforeAll(async () => {
      s = await setUp(backend);
      expect((await call(`${s.server.url}/api/users`, { json: { email: EMAIL, name: "Victim", password: PASSWORD } })).status).toBe(200);
      first = await signIn(s, key, PASSWORD);
      expect(first.status).toBe(200);
    });

    test("leaves no token, key, password or e-mail in the table, and no hash a guess list can be tested against", async () => {
      const rows = await s.dump();
      expect(rows).toHaveLength(1);
      const stored = flatten(rows);
      const text = stored.join("\n");
      const token: string = first.json.data.token;
      for (const secret of [token, token.split(".")[2], key, PASSWORD, EMAIL]) expect(text).not.toContain(secret);
      // Each guess, in every form an attacker would hash, matches nothing stored.
      const tried = GUESSES.flatMap(attackerDigests);
      expect(tried).toHaveLength(GUESSES.length * 6);
      for (const digest of tried) {
        expect(stored.some((v) => v.toLowerCase().includes(digest))).toBe(false);
      }
    });

    test("the same client's retry replays the same answer, and the action ran once", async () => {
      const rowsBefore = (await s.dump()).length;
      const retry = await signIn(s, key, PASSWORD);
      expect([retry.status, retry.headers["idempotent-replayed"], retry.text]).toEqual([200, "true", first.text]);
      expect((await s.dump()).length).toBe(rowsBefore);
    });

    test("another request with the key (a wrong password) is a sign-in of its own, not a fast 422", async () => {
      for (const answer of [await signIn(s, key, "123456"), await signInElsewhere(s, key, "123456")]) {
        expect([answer.status, answer.headers["idempotent-replayed"]]).toEqual([401, undefined]);
        expect(answer.json.error).toBe("wrong e-mail or password");
      }
    });

    test("a second client with the key and the right password gets a sign-in of its own, never the first client's answer", async () => {
      const rowsBefore = (await s.dump()).length;
      const second = await signInElsewhere(s, key, PASSWORD);
      expect(second.status).toBe(200);
      expect(second.headers["idempotent-replayed"]).toBeUndefined();
      // It ran: its answer was stored apart, under its own row.
      expect((await s.dump()).length).toBe(rowsBefore + 1);
      const token: string = first.json.data.token;
      expect(flatten(await s.dump()).join("\n")).not.toContain(token.split(".")[2]);
    });

    test("a session started with a key from a route file: its cookie is nowhere in the table, and its outcome is sealed", async () => {
      const before = new Set((await s.dump()).map((r) => String(r.id)));
      const form = await call(`${s.server.url}/session`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "idempotency-key": randomUUID(), origin: s.server.url },
        body: `email=${encodeURIComponent(EMAIL)}&password=${encodeURIComponent(PASSWORD)}`,
      });
      expect(form.status).toBe(303);
      const cookie = /svc_session=([^;]*)/.exec(String(form.headers["set-cookie"]))![1];
      expect(cookie.length).toBeGreaterThan(20);
      const rows = await s.dump();
      expect(flatten(rows).join("\n")).not.toContain(cookie);
      const added = rows.filter((r) => !before.has(String(r.id)));
      expect(added.map((r) => [r.scope, String(r.body).startsWith("sealed:v1:")])).toEqual([["POST /session", true]]);
    });

    test("two signed-in callers with one key and one request never receive each other's answer", async () => {
      const tokens: string[] = [];
      for (const email of ["one@example.com", "two@example.com"]) {
        expect((await call(`${s.server.url}/api/users`, { json: { email, name: email, password: PASSWORD } })).status).toBe(200);
        const signedIn = await call(`${s.server.url}/api/users/login`, { json: { email, password: PASSWORD } });
        tokens.push(signedIn.json.data.token);
      }
      const note = (token: string, body: string) =>
        call(`${s.server.url}/api/notes`, { json: { body }, headers: { authorization: `Bearer ${token}`, "idempotency-key": "shared-key" } });
      const [a, b] = [await note(tokens[0], "same"), await note(tokens[1], "same")];
      expect([a.status, b.status, b.headers["idempotent-replayed"]]).toEqual([200, 200, undefined]);
      expect(a.json.data.owner).not.toBe(b.json.data.owner);
      for (const [token, answer] of [[tokens[0], a], [tokens[1], b]] as const) {
        const retry = await note(token, "same");
        expect([retry.headers["idempotent-replayed"], retry.text]).toEqual(["true", answer.text]);
      }
      // One caller's other request with the key is still the 422 it was.
      expect((await note(tokens[0], "other")).status).toBe(422);
    });
  });
}
