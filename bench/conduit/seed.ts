// The Conduit data both servers are counted on: 5 authors and a reader, 20 articles with
// 3 tags each, favorites and follows. Deterministic (seeded ids, fixed times), so every run
// and both servers start from the same rows. svc creates the schema; this only inserts.
import Database from "better-sqlite3";
import { seededRandom, ulid } from "../ulid.js";

export const SEEDED_ARTICLES = 20;
const AUTHORS = 5;
const TAGS = ["dragons", "training", "coffee", "sqlite", "http", "types", "bench", "news"];
/** 2026-01-01T00:00:00Z; article i is i hours after it, so the list order is known. */
const BASE_MS = Date.UTC(2026, 0, 1);

export interface ConduitSeed {
  accounts: { id: string; username: string; email: string; password: string; bio: string | null; image: string | null }[];
  articles: { id: string; slug: string; title: string; description: string; body: string; author: string; created_at: string; updated_at: string }[];
  tags: { id: string; article: string; tag: string }[];
  favorites: { id: string; article: string; account: string }[];
  follows: { id: string; follower: string; followee: string }[];
  /** The account the counted requests sign in as. */
  readerId: string;
}

export function conduitSeed(): ConduitSeed {
  const random = seededRandom(12).source;
  const id = (ms: number): string => ulid(ms, random);
  const accounts: ConduitSeed["accounts"] = [];
  for (let i = 0; i <= AUTHORS; i++) {
    const username = i === AUTHORS ? "reader" : `author${i}`;
    accounts.push({
      id: id(BASE_MS - 1000 + i),
      username,
      email: `${username}@example.com`,
      // Never verified here: no request of the bench logs in.
      password: "scrypt$not-a-real-hash",
      bio: i % 2 === 0 ? `I am ${username}` : null,
      image: i % 3 === 0 ? `https://img.example.com/${username}.png` : null,
    });
  }
  const reader = accounts[AUTHORS];
  const articles: ConduitSeed["articles"] = [];
  const tags: ConduitSeed["tags"] = [];
  const favorites: ConduitSeed["favorites"] = [];
  for (let i = 0; i < SEEDED_ARTICLES; i++) {
    const ms = BASE_MS + i * 3_600_000;
    const at = new Date(ms).toISOString();
    const article = {
      id: id(ms),
      slug: `how-to-train-your-dragon-${i}`,
      title: `How to train your dragon ${i}`,
      description: `Part ${i} of the series`,
      body: `Part ${i}: you have to believe. `.repeat(8).trim(),
      author: accounts[i % AUTHORS].id,
      created_at: at,
      updated_at: at,
    };
    articles.push(article);
    for (let k = 0; k < 3; k++) tags.push({ id: id(ms + 1 + k), article: article.id, tag: TAGS[(i + k * 3) % TAGS.length] });
    // i % 4 of the authors favorite article i, and the reader every third one.
    for (let f = 0; f < i % 4; f++) favorites.push({ id: id(ms + 10 + f), article: article.id, account: accounts[(i + f + 1) % AUTHORS].id });
    if (i % 3 === 0) favorites.push({ id: id(ms + 20), article: article.id, account: reader.id });
  }
  const follows = [0, 2].map((a, n) => ({ id: id(BASE_MS - 500 + n), follower: reader.id, followee: accounts[a].id }));
  return { accounts, articles, tags, favorites, follows, readerId: reader.id };
}

/** Inserts the seed into a database whose schema svc made. */
export function writeSeed(file: string, seed: ConduitSeed): void {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.transaction(() => {
      for (const [table, rows] of [
        ["account", seed.accounts],
        ["article", seed.articles],
        ["article_tag", seed.tags],
        ["favorite", seed.favorites],
        ["follow", seed.follows],
      ] as const) {
        for (const row of rows) {
          const columns = Object.keys(row);
          db.prepare(
            `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map((c) => `@${c}`).join(", ")})`,
          ).run(row);
        }
      }
    })();
  } finally {
    db.close();
  }
}

/** Deletes the articles (and their tags) a POST run added, so every batch starts from the seed. */
export function trimArticles(file: string, seed: ConduitSeed): number {
  const db = new Database(file, { fileMustExist: true });
  try {
    const keep = JSON.stringify(seed.articles.map((a) => a.id));
    return db.transaction(() => {
      db.prepare(`DELETE FROM article_tag WHERE article NOT IN (SELECT value FROM json_each(?))`).run(keep);
      return db.prepare(`DELETE FROM article WHERE id NOT IN (SELECT value FROM json_each(?))`).run(keep).changes;
    })();
  } finally {
    db.close();
  }
}
