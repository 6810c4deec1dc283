// The small pieces of route files and pages, one by one: front matter, folders as URLs,
// multipart bodies, ETags, call inputs, redirects, public/ files,
// and the templates' two kinds of escaping.

import { mkdirSync, truncateSync, writeFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { join } from "node:path";
import { describe, expect, test } from "../support/jest.js";
import { bySpecificity, folderPath, routeReference } from "../../compiler/analyze/app/app-paths.js";
import { parseFrontMatter } from "../../compiler/parse/front-matter.js";
import { MAX_PUBLIC_FILE, readPublicFiles } from "../../compiler/project/public-files.js";
import { Reporter } from "../../compiler/analyze/shared/context.js";
import { HttpError } from "../../runtime/core/errors.js";
import { multipartBoundary, parseMultipart } from "../../runtime/core/forms.js";
import { callInput, join as joinText } from "../../runtime/pages/call.js";
import { siteLocation } from "../../runtime/pages/route-request.js";
import { parseTemplate, renderHtml, renderText } from "../../runtime/pages/templates.js";
import { notModified } from "../../runtime/assets/public-files.js";
import { removeDir, tmpDir } from "../support/server.js";

function front(text: string) {
  const { ast: fm, diagnostics } = parseFrontMatter("page.html", text);
  return { fm, codes: diagnostics.map((d) => `${d.code} ${d.span?.start.line}:${d.span?.start.column} ${d.message}`) };
}

describe("front matter", () => {
  test("title and route, bare or quoted, comments skipped; the template starts after the closing fence", () => {
    const text = "---\n# comment\ntitle: 'It''s \"mine\"'\nroute: /api/x\n---\n<p>body</p>\n";
    const { fm, codes } = front(text);
    expect(codes).toEqual([]);
    expect(fm.title?.value).toBe(`It's "mine"`);
    expect(fm.route?.value).toBe("/api/x");
    expect(text.slice(fm.bodyOffset)).toBe("<p>body</p>\n");
  });

  test("no front matter: the whole file is the template", () => {
    const { fm, codes } = front("<p>---</p>\n");
    expect(codes).toEqual([]);
    expect(fm).toEqual({ title: null, route: null, bodyOffset: 0 });
  });

  test("CRLF line ends and a BOM are fine", () => {
    const text = "\uFEFF---\r\ntitle: Windows\r\n---\r\n<p>x</p>";
    const { fm, codes } = front(text);
    expect(codes).toEqual([]);
    expect(fm.title?.value).toBe("Windows");
    expect(text.slice(fm.bodyOffset)).toBe("<p>x</p>");
  });

  test("problems point at the line: an unknown key (with a suggestion), a repeated key, an unclosed quote", () => {
    const { codes } = front('---\ntitel: x\ntitle: a\ntitle: b\nroute: "open\n---\n');
    expect(codes).toEqual([
      "SVC6021 2:1 unknown front matter key `titel`",
      "SVC6021 4:1 `title` is given twice",
      "SVC6020 5:8 this quoted value is not closed",
    ]);
  });
});

describe("folders as URLs", () => {
  test("[id] folders are parameters; the app folder prefix is cut", () => {
    const r = new Reporter();
    expect(folderPath("app", "app/api/tasks/[id]/route.svc", r)).toEqual({
      path: "/api/tasks/:id",
      segments: ["api", "tasks", ":id"],
      params: ["id"],
    });
    expect(folderPath("app", "app/page.html", r)).toEqual({ path: "/", segments: [], params: [] });
    expect(folderPath(".", "docs/page.html", r)?.path).toBe("/docs");
    expect(r.diagnostics).toEqual([]);
  });

  test("a repeated parameter, a half bracket and a colon are refused", () => {
    const r = new Reporter();
    expect(folderPath("app", "app/[id]/x/[id]/page.html", r)).toBeNull();
    expect(folderPath("app", "app/[id/page.html", r)).toBeNull();
    expect(folderPath("app", "app/:id/page.html", r)).toBeNull();
    expect(r.diagnostics.map((d) => d.code)).toEqual(["SVC6019", "SVC6019", "SVC6019"]);
  });

  test("matching order puts fixed segments before parameters, whatever the names sort as", () => {
    const paths = [["tasks", ":id"], ["tasks", "new"], ["tasks"], [":a", "b"]].map((segments) => ({ segments }));
    expect(paths.sort(bySpecificity).map((p) => p.segments.join("/"))).toEqual(["tasks", "tasks/new", "tasks/:id", ":a/b"]);
  });

  test("a page's route may name parameters as [id] or :id", () => {
    expect(routeReference("/api/tasks/[id]")).toEqual(["api", "tasks", ":id"]);
    expect(routeReference("/api/tasks/:id/")).toEqual(["api", "tasks", ":id"]);
  });
});

describe("multipart/form-data", () => {
  const type = "multipart/form-data; boundary=XyZ";
  const part = (name: string, value: string, extra = "") =>
    `--XyZ\r\nContent-Disposition: form-data; name="${name}"${extra}\r\n\r\n${value}\r\n`;

  test("fields become strings, UTF-8 decoded, line breaks inside values kept", () => {
    const body = Buffer.from(`preamble\r\n${part("title", "Grüße")}${part("notes", "a\r\nb")}--XyZ--\r\nepilogue`);
    const args = parseMultipart(body, type);
    expect({ ...args }).toEqual({ title: "Grüße", notes: "a\r\nb" });
    expect(Object.getPrototypeOf(Object.getPrototypeOf(args))).toBeNull();
  });

  test("a quoted boundary, and names with escaped quotes", () => {
    expect(multipartBoundary('multipart/form-data; boundary="a b"')).toBe("a b");
    const body = Buffer.from(`--XyZ\r\nContent-Disposition: form-data; name="say %22hi%22"\r\n\r\nx\r\n--XyZ--\r\n`);
    expect({ ...parseMultipart(body, type) }).toEqual({ 'say "hi"': "x" });
  });

  test.each([
    ["no boundary", Buffer.from("x"), "multipart/form-data", "multipart form body has no boundary in its Content-Type"],
    ["unterminated", Buffer.from(part("a", "1")), type, "multipart form body is not closed by its final boundary"],
    ["a repeated name", Buffer.from(`${part("a", "1")}${part("a", "2")}--XyZ--`), type, 'argument "a" given more than once in the form body'],
    ["a list key", Buffer.from(`${part("a[]", "1")}--XyZ--`), type, 'argument "a" given as a list or object in the form body; pass one value'],
    ["bad UTF-8", Buffer.concat([Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\n'), Buffer.from([0xff]), Buffer.from("\r\n--XyZ--")]), type, 'form body field "a" is not valid UTF-8'],
  ])("refuses %s with a 400", (_what, body, contentType, message) => {
    let thrown: unknown;
    try {
      parseMultipart(body, contentType);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(HttpError);
    expect((thrown as HttpError).status).toBe(400);
    expect((thrown as HttpError).message).toBe(message);
  });

  test("a file part, where no `file` argument takes it, is a 415 naming it", () => {
    let thrown: unknown;
    try {
      parseMultipart(Buffer.from(`${part("f", "data", '; filename="a.txt"')}--XyZ--`), type);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(HttpError);
    expect((thrown as HttpError).status).toBe(415);
    expect((thrown as HttpError).message).toBe('argument "f" is a file upload, and no file is taken there');
  });
});

describe("responses", () => {
  test("If-None-Match: exact, weak, lists and *", () => {
    expect(notModified(undefined, '"a"')).toBe(false);
    expect(notModified('"a"', '"a"')).toBe(true);
    expect(notModified('W/"a"', '"a"')).toBe(true);
    expect(notModified('"b", "a"', '"a"')).toBe(true);
    expect(notModified("*", '"a"')).toBe(true);
    expect(notModified('"b"', '"a"')).toBe(false);
  });

  test("a redirect stays on the site and is a valid header", () => {
    expect(siteLocation("/tasks/1")).toBe("/tasks/1");
    expect(siteLocation("/tasks/ä b")).toBe("/tasks/%C3%A4%20b");
    for (const bad of ["//evil.example", "https://evil.example", "/\\evil.example", "tasks"]) {
      expect(() => siteLocation(bad)).toThrow("the redirect leaves this site");
    }
  });

  test("callInput leaves out absent values and says which arrived as text", () => {
    expect(callInput({ a: "1", b: undefined }, { text: "all" })).toMatchObject({ args: { a: "1" }, text: true });
    expect(callInput({ id: "x", n: 5 }, { text: ["id"] })).toMatchObject({ args: { id: "x", n: 5 }, text: false, textArgs: ["id"] });
    expect(callInput({ id: "x" }, { text: ["id"] })).toMatchObject({ text: true });
    expect("b" in callInput({ a: "1", b: undefined }, { text: "all" }).args).toBe(false);
  });

  test("+ in a route file joins text, absent values as empty", () => {
    expect(joinText("/tasks/", undefined, "/", null, 5, true)).toBe("/tasks//5true");
  });

  test("templates: {{x}} escaped, {{{x}}} raw, titles rendered as plain text for the layout to escape once", () => {
    const view = { x: "<b>&</b>" };
    expect(renderHtml(parseTemplate("{{x}}|{{{x}}}"), view)).toBe("&lt;b&gt;&amp;&lt;&#x2F;b&gt;|<b>&</b>");
    expect(renderText(parseTemplate("Task {{x}}"), view)).toBe("Task <b>&</b>");
  });
});

describe("public/", () => {
  test("text files stay text, others base64, each with its type", () => {
    const root = tmpDir("public-");
    try {
      mkdirSync(join(root, "public", "img"), { recursive: true });
      writeFileSync(join(root, "public", "app.css"), "a{}");
      writeFileSync(join(root, "public", "img", "x.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      writeFileSync(join(root, "public", ".hidden"), "no");
      const { files, diagnostics } = readPublicFiles(root, "public");
      expect(diagnostics).toEqual([]);
      expect(files.map((f) => [f.path, f.contentType, f.encoding, f.body])).toEqual([
        ["/app.css", "text/css; charset=utf-8", "utf8", "a{}"],
        ["/img/x.png", "image/png", "base64", "iVBORw=="],
      ]);
    } finally {
      removeDir(root);
    }
  });

  test("a file too big to keep in memory is SVC6029", () => {
    const root = tmpDir("public-");
    try {
      mkdirSync(join(root, "public"));
      const big = join(root, "public", "video.mp4");
      writeFileSync(big, "");
      // A sparse file: the size is what is checked, no bytes are read.
      truncateSync(big, MAX_PUBLIC_FILE + 1);
      const { files, diagnostics } = readPublicFiles(root, "public");
      expect(files).toEqual([]);
      expect(diagnostics.map((d) => [d.code, d.file])).toEqual([["SVC6029", "public/video.mp4"]]);
    } finally {
      removeDir(root);
    }
  });
});
