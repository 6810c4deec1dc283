import { describe, expect, test } from "../../support/jest.js";
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { difference, locationPath, masked } from "../../../bench/conduit/compare.js";
import type { Answer } from "../../../bench/conduit/compare.js";
import { conduitSeed, SEEDED_ARTICLES, trimArticles, writeSeed } from "../../../bench/conduit/seed.js";
import { conduitSlug } from "../../../bench/conduit/slug.js";
import { slug } from "../../../runtime/lang/builtins.js";

describe("conduitSeed", () => {
  const seed = conduitSeed();

  test("is the same on every call", () => {
    expect(conduitSeed()).toEqual(seed);
  });

  test("20 articles by 5 authors, 3 distinct tags each, a reader with favorites and follows", () => {
    expect(seed.articles).toHaveLength(SEEDED_ARTICLES);
    expect(new Set(seed.articles.map((a) => a.author)).size).toBe(5);
    for (const article of seed.articles) {
      const tags = seed.tags.filter((t) => t.article === article.id).map((t) => t.tag);
      expect(new Set(tags).size).toBe(3);
    }
    const reader = seed.accounts.find((a) => a.id === seed.readerId)!;
    expect(reader.username).toBe("reader");
    expect(seed.favorites.filter((f) => f.account === seed.readerId)).toHaveLength(7);
    expect(seed.favorites.length).toBeGreaterThan(20);
    expect(seed.follows.every((f) => f.follower === seed.readerId)).toBe(true);
    const ids = [seed.accounts, seed.articles, seed.tags, seed.favorites, seed.follows].flat().map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    // Each (article, account) favorite at most once: the table's unique constraint.
    const pairs = seed.favorites.map((f) => `${f.article}/${f.account}`);
    expect(new Set(pairs).size).toBe(pairs.length);
  });
});

describe("writeSeed and trimArticles", () => {
  test("insert the seed, then delete only the articles and tags added after it", () => {
    const dir = mkdtempSync(join(tmpdir(), "conduit-seed-"));
    try {
      const file = join(dir, "db");
      const db = new Database(file);
      db.exec(`CREATE TABLE account (id TEXT PRIMARY KEY, username TEXT, email TEXT, password TEXT, bio TEXT, image TEXT);
        CREATE TABLE article (id TEXT PRIMARY KEY, slug TEXT, title TEXT, description TEXT, body TEXT, author TEXT, created_at TEXT, updated_at TEXT);
        CREATE TABLE article_tag (id TEXT PRIMARY KEY, article TEXT, tag TEXT);
        CREATE TABLE favorite (id TEXT PRIMARY KEY, article TEXT, account TEXT);
        CREATE TABLE follow (id TEXT PRIMARY KEY, follower TEXT, followee TEXT);`);
      db.close();
      const seed = conduitSeed();
      writeSeed(file, seed);
      const added = new Database(file);
      added.prepare("INSERT INTO article (id, title) VALUES ('new', 'x')").run();
      added.prepare("INSERT INTO article_tag (id, article, tag) VALUES ('t', 'new', 'bench')").run();
      added.close();
      expect(trimArticles(file, seed)).toBe(1);
      const check = new Database(file, { readonly: true });
      expect(check.prepare("SELECT count(*) AS n FROM article").get()).toEqual({ n: SEEDED_ARTICLES });
      expect(check.prepare("SELECT count(*) AS n FROM article_tag").get()).toEqual({ n: seed.tags.length });
      expect(check.prepare("SELECT count(*) AS n FROM favorite").get()).toEqual({ n: seed.favorites.length });
      check.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("conduitSlug", () => {
  test("makes the slug svc's builtin makes", () => {
    for (const title of ["How to train your dragon", "  Crème Brûlée — part 2!  ", "Straße & Œuvre", "日本語 only", "a--b__c"]) {
      expect(conduitSlug(title)).toBe(slug(title));
    }
  });
});

describe("comparing answers", () => {
  const article = (slugText: string, at: string) =>
    JSON.stringify({ article: { slug: slugText, title: "T", createdAt: at, updatedAt: at, tagList: ["a"] } });
  const answer = (body: string, status = 201, location: string | null = null): Answer => ({ status, body, location });

  test("masked hides times and the id suffix of a taken slug, nothing else", () => {
    expect(masked(article("bench-article-01jabcdefghjkmnpqrstvwxyz0", "2026-01-01T00:00:00.000Z"))).toBe(
      JSON.stringify({ article: { slug: "bench-article-<id>", title: "T", createdAt: "<time>", updatedAt: "<time>", tagList: ["a"] } }),
    );
    expect(masked(article("bench-article", "x"))).toContain('"slug":"bench-article"');
  });

  test("locationPath drops scheme and host", () => {
    expect(locationPath("http://127.0.0.1:4000/api/articles/a-b?x=1")).toBe("/api/articles/a-b?x=1");
    expect(locationPath(null)).toBeNull();
  });

  test("difference: exact unless masked, and names what differs", () => {
    const a = answer(article("s", "2026-01-01T00:00:00.000Z"), 201, "/api/articles/s");
    const b = answer(article("s", "2026-01-02T00:00:00.000Z"), 201, "/api/articles/s");
    expect(difference(a, b, true)).toBeNull();
    expect(difference(a, b, false)).toMatch(/^bodies differ/);
    expect(difference(a, { ...b, status: 200 }, true)).toBe("status 201 (svc) vs 200 (baseline)");
    expect(difference(a, { ...b, location: "/api/articles/t" }, true)).toMatch(/^Location/);
    expect(difference(a, answer(article("t", "x")), true)).toMatch(/^bodies differ/);
  });
});
