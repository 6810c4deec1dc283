// File uploads over real sockets (docs/language.md §2.7, docs/operations.md "Uploads"):
// `file` arguments from multipart bodies sent by curl -F and by undici's FormData, stored
// under content-addressed names whatever the client called them, and served back with
// their type, a strong ETag, 304s, a safe Content-Disposition and nosniff. Limits and
// malformed bodies are attacked, each answering a 4xx and leaving no file behind.

import { spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "../support/jest.js";
import { FormData, request } from "undici";
import { call } from "../support/http.js";
import { repoRoot } from "../support/paths.js";
import { type TestServer, buildTo, removeDir, startServer } from "../support/server.js";

let dir: string;
let server: TestServer;
let store: string;

beforeAll(async () => {
  dir = await buildTo({ mode: "project", dir: join(repoRoot, "tests", "http", "projects", "uploads") });
  server = await startServer(dir, ["--db", join(dir, "a.db")]);
  // svc.toml: dir = "data/files", relative to the folder the server runs in.
  store = join(dir, "data", "files");
});

afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  removeDir(dir);
});

/** Every file under the store, as `ab/abcd…` paths; `.incoming/…` for temporary ones. */
function stored(): string[] {
  if (!existsSync(store)) return [];
  return (readdirSync(store, { recursive: true, encoding: "utf8" }) as string[])
    .filter((p) => p.includes("/") || p.includes("\\"))
    .map((p) => p.replace(/\\/g, "/"))
    .sort();
}

function curl(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("curl", ["-s", "-S", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (out += c.toString("utf8")));
    child.on("error", reject);
    // "close", not "exit": only then has all of curl's output been read.
    child.on("close", (code) => resolve({ code, out }));
  });
}

async function send(body: FormData, path = "/docs", headers: Record<string, string> = {}) {
  const res = await request(`${server.url}${path}`, { method: "POST", body, headers });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, json: JSON.parse(text) };
}

/** A hand-made multipart body: for what FormData will not send (NUL in a name, a cut body). */
function multipart(parts: { name: string; filename?: string; type?: string; data: string | Buffer }[], boundary = "svcB0undary", close = true): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const file = p.filename === undefined ? "" : `; filename="${p.filename}"`;
    const type = p.type === undefined ? "" : `\r\nContent-Type: ${p.type}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${file}${type}\r\n\r\n`, "latin1"));
    chunks.push(typeof p.data === "string" ? Buffer.from(p.data) : p.data);
    chunks.push(Buffer.from("\r\n"));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

async function postRaw(body: Buffer, type = "multipart/form-data; boundary=svcB0undary", path = "/docs") {
  return call(`${server.url}${path}`, { body, headers: { "content-type": type } });
}

describe("uploading", () => {
  test("curl -F: the file's name, type, size and sha256 reach the action; the bytes are stored by their hash", async () => {
    const file = join(dir, "hello.txt");
    writeFileSync(file, "hello, world\n");
    const r = await curl(["-F", "title=Greeting", "-F", `attachment=@${file};type=text/plain`, `${server.url}/docs`]);
    expect(r.code).toBe(0);
    const data = JSON.parse(r.out).data;
    expect(data).toEqual({
      id: expect.any(String),
      name: "hello.txt",
      type: "text/plain",
      size: 13,
      sha256: "853ff93762a06ddbf722c4ebe9ddd66d8f63ddaea97f521c3ecc20da7c976020",
    });
    expect(stored()).toContain(`85/${data.sha256}`);
    const back = await call(`${server.url}/docs/${data.id}/file`);
    expect([back.status, back.text]).toEqual([200, "hello, world\n"]);
  });

  test("undici FormData: a Blob with its type, served back with type, strong ETag, nosniff and inline disposition", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    const form = new FormData();
    form.set("title", "Picture");
    form.set("attachment", new Blob([png], { type: "image/png" }), "pic.png");
    const r = await send(form);
    expect(r.status).toBe(200);
    const { id, sha256 } = r.json.data;
    const res = await request(`${server.url}/docs/${id}/file`);
    const bytes = Buffer.from(await res.body.arrayBuffer());
    expect(res.statusCode).toBe(200);
    expect(bytes.equals(png)).toBe(true);
    expect(res.headers["content-type"]).toBe("image/png");
    expect(res.headers.etag).toBe(`"${sha256}"`);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["content-disposition"]).toBe(`inline; filename="pic.png"; filename*=UTF-8''pic.png`);
    const again = await request(`${server.url}/docs/${id}/file`, { headers: { "if-none-match": `W/"x", "${sha256}"` } });
    await again.body.text();
    expect(again.statusCode).toBe(304);
    const other = await request(`${server.url}/docs/${id}/file`, { headers: { "if-none-match": `"${"0".repeat(64)}"` } });
    await other.body.text();
    expect(other.statusCode).toBe(200);
  });

  test("the same bytes uploaded twice are stored once", async () => {
    const before = stored().length;
    for (const title of ["one", "two"]) {
      const form = new FormData();
      form.set("title", title);
      form.set("attachment", new Blob(["same bytes"], { type: "text/plain" }), `${title}.txt`);
      expect((await send(form)).status).toBe(200);
    }
    expect(stored().length).toBe(before + 1);
  });

  test("an optional file left empty (no file chosen) is null, and answering null is a 404", async () => {
    const body = multipart([
      { name: "title", data: "no thumb" },
      { name: "attachment", filename: "a.txt", type: "text/plain", data: "a" },
      { name: "thumb", filename: "", type: "application/octet-stream", data: "" },
    ]);
    const r = await postRaw(body);
    expect(r.status).toBe(200);
    const thumb = await call(`${server.url}/docs/${r.json.data.id}/thumb`);
    expect([thumb.status, thumb.json]).toEqual([404, { ok: false, error: "not found" }]);
  });

  test("a required file left empty is a 400 naming it", async () => {
    const r = await postRaw(multipart([{ name: "title", data: "x" }, { name: "attachment", filename: "", data: "" }]));
    expect([r.status, r.json.error]).toEqual([400, 'argument "attachment" is required']);
  });

  test("a JSON body cannot forge a file: only a multipart part is one", async () => {
    const r = await call(`${server.url}/docs`, {
      json: { title: "forged", attachment: { name: "x", type: "text/plain", size: 13, sha256: "853ff93762a06ddbf722c4ebe9ddd66d8f63ddaea97f521c3ecc20da7c976020" } },
    });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('argument "attachment" must be a file, sent as a part of a multipart/form-data body');
  });
});

describe("the client's filename is a name, never a path", () => {
  test.each([
    ["../ in the name", "../../../etc/passwd", "passwd"],
    ["an absolute path", "/etc/shadow", "shadow"],
    ["a Windows path", "C:\\Windows\\system.ini", "system.ini"],
    ["only dots", "..", "file"],
    ["a tab", "a\tb.txt", "ab.txt"],
    ["CR and LF as browsers escape them", "a%0D%0Ab.txt", "ab.txt"],
    ["a quote as browsers escape it", "say %22hi%22.txt", 'say "hi".txt'],
  ])("%s", async (_what, filename, kept) => {
    const before = stored();
    const r = await postRaw(multipart([{ name: "title", data: "t" }, { name: "attachment", filename, type: "text/plain", data: `bytes of ${JSON.stringify(filename)}` }]));
    expect(r.status).toBe(200);
    expect(r.json.data.name).toBe(kept);
    // Nothing outside the store's hash folders, whatever the name said.
    const after = stored();
    expect(after.filter((p) => !before.includes(p))).toEqual([`${r.json.data.sha256.slice(0, 2)}/${r.json.data.sha256}`]);
    expect(after.every((p) => /^[0-9a-f]{2}\/[0-9a-f]{64}$/.test(p))).toBe(true);
  });

  test.each([
    ["a NUL byte", "evil\u0000.txt"],
    ["control characters", "a\u0007b\u001bc.txt"],
  ])("%s in a part's headers is a 400, and nothing is stored", async (_what, filename) => {
    const before = stored();
    const r = await postRaw(multipart([{ name: "title", data: "t" }, { name: "attachment", filename, data: "x" }]));
    expect([r.status, r.json.error]).toEqual([400, "multipart form body is malformed: Malformed part header"]);
    expect(stored()).toEqual(before);
  });

  test("a huge name is cut to 255 characters; a non-ASCII one is served in filename*", async () => {
    const huge = await postRaw(multipart([{ name: "title", data: "t" }, { name: "attachment", filename: `${"a".repeat(5000)}.txt`, data: "huge" }]));
    expect(huge.status).toBe(200);
    expect(huge.json.data.name).toHaveLength(255);
    const form = new FormData();
    form.set("title", "Résumé");
    form.set("attachment", new Blob(["%PDF-1.4"], { type: "application/pdf" }), 'résumé "final";.pdf');
    const r = await send(form);
    const res = await request(`${server.url}/docs/${r.json.data.id}/file`);
    await res.body.text();
    expect(res.headers["content-disposition"]).toBe(`inline; filename="r_sum_ _final_;.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22%3B.pdf`);
  });
});

describe("active types are never served as themselves", () => {
  test.each([
    ["text/html", "x.html", "<script>alert(1)</script>"],
    ["image/svg+xml", "x.svg", '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
    ["application/xhtml+xml", "x.xhtml", "<html/>"],
    ["text/xml", "x.xml", "<a/>"],
    ["text/javascript", "x.js", "alert(1)"],
  ])("%s is application/octet-stream, as an attachment, sandboxed", async (type, name, content) => {
    const form = new FormData();
    form.set("title", name);
    form.set("attachment", new Blob([content], { type }), name);
    const r = await send(form);
    expect(r.json.data.type).toBe(type);
    const res = await request(`${server.url}/docs/${r.json.data.id}/file`);
    expect(await res.body.text()).toBe(content);
    expect(res.headers["content-type"]).toBe("application/octet-stream");
    expect(res.headers["content-disposition"]).toMatch(/^attachment; /);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
  });
});

describe("limits and malformed bodies: a clear 4xx, and no file left behind", () => {
  async function attack(run: () => Promise<{ status: number; json: any }>, status: number, error: string | RegExp) {
    const before = stored();
    const r = await run();
    expect(r.status).toBe(status);
    if (typeof error === "string") expect(r.json.error).toBe(error);
    else expect(r.json.error).toMatch(error);
    // The temporary files go with the request; nothing new is stored.
    expect(stored().filter((p) => p.startsWith(".incoming/"))).toEqual([]);
    expect(stored()).toEqual(before.filter((p) => !p.startsWith(".incoming/")));
  }

  test("a file past max_file_size is a 413", async () => {
    const big = Buffer.alloc(65537, 0x61);
    await attack(() => postRaw(multipart([{ name: "title", data: "t" }, { name: "attachment", filename: "big.bin", data: big }])), 413, 'file "attachment" is larger than 65536 bytes');
  });

  test("a file past max_file_size sent with curl -F is a 413", async () => {
    const file = join(dir, "big.bin");
    writeFileSync(file, Buffer.alloc(100_000, 0x62));
    const before = stored();
    const r = await curl(["-F", "title=t", "-F", `attachment=@${file}`, `${server.url}/docs`]);
    expect(JSON.parse(r.out)).toEqual({ ok: false, error: 'file "attachment" is larger than 65536 bytes' });
    expect(stored()).toEqual(before);
  });

  test("more files than max_files is a 413", async () => {
    await attack(
      () =>
        postRaw(
          multipart([
            { name: "title", data: "t" },
            { name: "attachment", filename: "1.txt", data: "1" },
            { name: "thumb", filename: "2.txt", data: "2" },
            { name: "extra", filename: "3.txt", data: "3" },
          ]),
        ),
      413,
      "more than 2 files in one request",
    );
  });

  test("a body past max_request_size is a 413, declared or streamed", async () => {
    const fields = Array.from({ length: 5 }, (_, i) => ({ name: `f${i}`, data: "x".repeat(50_000) }));
    await attack(() => postRaw(multipart([...fields, { name: "attachment", filename: "a.txt", data: "a" }])), 413, "request body is larger than 200000 bytes");
    const body = multipart([{ name: "attachment", filename: "a.bin", data: Buffer.alloc(60_000, 1) }, ...fields]);
    await attack(
      async () => {
        // Chunked: no Content-Length to refuse early, so the bytes are counted as they come.
        const res = await request(`${server.url}/docs`, {
          method: "POST",
          headers: { "content-type": "multipart/form-data; boundary=svcB0undary" },
          body: Readable.from(
            (function* () {
              for (let at = 0; at < body.length; at += 16_384) yield body.subarray(at, at + 16_384);
            })(),
          ),
        });
        return { status: res.statusCode, json: JSON.parse(await res.body.text()) };
      },
      413,
      "request body is larger than 200000 bytes",
    );
  });

  test("a body cut short in the middle of a file is a 400", async () => {
    const cut = multipart([{ name: "title", data: "t" }, { name: "attachment", filename: "a.bin", data: Buffer.alloc(30_000, 7) }], "svcB0undary", false);
    await attack(() => postRaw(cut.subarray(0, cut.length - 1000)), 400, /^multipart form body is malformed: Unexpected end of form$/);
  });

  test("a multipart Content-Type without its boundary is a 400", async () => {
    await attack(() => postRaw(multipart([{ name: "attachment", filename: "a.txt", data: "a" }]), "multipart/form-data"), 400, "multipart form body has no boundary in its Content-Type");
  });

  test("a file part where no `file` argument takes it is a 415", async () => {
    await attack(
      () => postRaw(multipart([{ name: "id", data: "x" }, { name: "title", filename: "t.txt", data: "t" }]), undefined, "/api/files:rename"),
      415,
      'argument "title" is a file upload, and no file is taken there',
    );
    await attack(
      () => postRaw(multipart([{ name: "title", data: "t" }, { name: "attachment", filename: "a.txt", data: "a" }, { name: "other", filename: "o.txt", data: "o" }])),
      415,
      'argument "other" is a file upload, and no file is taken there',
    );
  });

  test("a file name given twice is a 400", async () => {
    await attack(
      () => postRaw(multipart([{ name: "attachment", filename: "a.txt", data: "a" }, { name: "attachment", filename: "b.txt", data: "b" }])),
      400,
      'argument "attachment" given more than once in the form body',
    );
  });
});

describe("route files", () => {
  test("a block passes input.body.<name> to a file argument: JSON callers get the envelope, a form post a 303", async () => {
    const form = new FormData();
    form.set("title", "From a block");
    form.set("attachment", new Blob(["block bytes"], { type: "text/plain" }), "block.txt");
    const json = await send(form, "/api/docs", { accept: "application/json", origin: server.url });
    expect(json.status).toBe(200);
    expect(json.json.data.result).toMatchObject({ name: "block.txt", size: 11, type: "text/plain" });
    const page = await request(`${server.url}/api/docs`, { method: "POST", body: (() => {
      const f = new FormData();
      f.set("title", "Form post");
      f.set("attachment", new Blob(["form bytes"], { type: "text/plain" }), "form.txt");
      return f;
    })(), headers: { accept: "text/html", origin: server.url } });
    await page.body.text();
    expect([page.statusCode, page.headers.location]).toEqual([303, "/docs"]);
    const list = await call(`${server.url}/api/files:list_docs`);
    expect(list.json.data.map((d: any) => d.attachment.name)).toEqual(expect.arrayContaining(["block.txt", "form.txt"]));
  });
});

describe("openapi.json and the generated client", () => {
  test("openapi.json says multipart for a file argument and octet-stream for a file answer, and is valid", async () => {
    const { Validator } = await import("@seriousme/openapi-schema-validator");
    const doc = JSON.parse(readFileSync(join(dir, "openapi.json"), "utf8"));
    const result = await new Validator().validate(doc);
    expect({ valid: result.valid, errors: result.errors }).toEqual({ valid: true, errors: undefined });
    expect(Object.keys(doc.paths["/docs"].post.requestBody.content)).toEqual(["multipart/form-data"]);
    expect(doc.paths["/docs"].post.requestBody.content["multipart/form-data"].schema.properties.attachment).toMatchObject({
      type: "string",
      contentMediaType: "application/octet-stream",
    });
    const answers = doc.paths["/docs/{id}/file"].get.responses;
    expect(Object.keys(answers["200"].content)).toEqual(["application/octet-stream"]);
    expect(answers["304"]).toBeDefined();
  });

  test("the client sends a Blob as a multipart part and gets a file answer as a Blob", async () => {
    const mod = await import(pathToFileURL(join(dir, "client.js")).href);
    const api = new mod.Client({ baseUrl: server.url, fetch });
    const sent = await api.postDocs({ title: "From the client", attachment: new File(["client bytes"], "c.txt", { type: "text/plain" }) });
    expect(sent).toMatchObject({ name: "c.txt", size: 12, type: "text/plain" });
    const blob: Blob = await api.getDocsIdFile({ id: sent.id });
    expect([blob.type, await blob.text()]).toEqual(["text/plain;charset=utf-8", "client bytes"]);
    await expect(api.getDocsIdThumb({ id: sent.id })).rejects.toMatchObject({ status: 404, message: "not found" });
  });
});
