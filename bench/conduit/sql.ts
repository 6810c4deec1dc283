// The SQLite statements of examples/conduit's generated server (dist/server.ts), copied as
// text so the baseline asks SQLite exactly what svc asks. svc writes anonymous `?`s bound
// positionally (runtime/db/sqlite/statements.ts: faster in better-sqlite3 than numbered ones),
// so a name used twice is passed twice. `GET /api/articles` runs ARTICLES and ARTICLES_COUNT; `POST /api/articles` runs ARTICLE_BY_SLUG, INSERT_ARTICLE,
// UPDATE_SLUG, then IS_TAG and INSERT_TAG per tag, then ARTICLE_VIEW.

export const ARTICLES = `SELECT a.slug, a.title, a.description, a.body,
       (SELECT json_group_array(t.tag ORDER BY t.tag) FROM article_tag t WHERE t.article = a.id) AS "tagList",
       a.created_at AS "createdAt", a.updated_at AS "updatedAt",
       EXISTS (SELECT 1 FROM favorite f WHERE f.article = a.id AND f.account = ?) AS favorited,
       (SELECT count(*) FROM favorite f WHERE f.article = a.id) AS "favoritesCount",
       json_object('username', u.username, 'bio', u.bio, 'image', u.image,
                   'following', json(CASE (EXISTS (SELECT 1 FROM follow fo WHERE fo.follower = ? AND fo.followee = u.id)) WHEN 1 THEN 'true' WHEN 0 THEN 'false' END)) AS author
FROM article a JOIN account u ON u.id = a.author
WHERE (? IS NULL OR EXISTS (SELECT 1 FROM article_tag t WHERE t.article = a.id AND t.tag = ?))
  AND (? IS NULL OR u.username = ?)
  AND (? IS NULL OR EXISTS (SELECT 1 FROM favorite f JOIN account fu ON fu.id = f.account
                                     WHERE f.article = a.id AND fu.username = ?))
ORDER BY a.created_at DESC, a.id DESC
LIMIT ? OFFSET ?`;

export const ARTICLES_COUNT = `SELECT count(*) AS n
FROM article a JOIN account u ON u.id = a.author
WHERE (? IS NULL OR EXISTS (SELECT 1 FROM article_tag t WHERE t.article = a.id AND t.tag = ?))
  AND (? IS NULL OR u.username = ?)
  AND (? IS NULL OR EXISTS (SELECT 1 FROM favorite f JOIN account fu ON fu.id = f.account
                                     WHERE f.article = a.id AND fu.username = ?))`;

export const ARTICLE_VIEW = `SELECT a.slug, a.title, a.description, a.body,
       (SELECT json_group_array(t.tag ORDER BY t.tag) FROM article_tag t WHERE t.article = a.id) AS "tagList",
       a.created_at AS "createdAt", a.updated_at AS "updatedAt",
       EXISTS (SELECT 1 FROM favorite f WHERE f.article = a.id AND f.account = ?) AS favorited,
       (SELECT count(*) FROM favorite f WHERE f.article = a.id) AS "favoritesCount",
       json_object('username', u.username, 'bio', u.bio, 'image', u.image,
                   'following', json(CASE (EXISTS (SELECT 1 FROM follow fo WHERE fo.follower = ? AND fo.followee = u.id)) WHEN 1 THEN 'true' WHEN 0 THEN 'false' END)) AS author
FROM article a JOIN account u ON u.id = a.author
WHERE a.slug = ?`;

export const ARTICLE_BY_SLUG = "SELECT id, author, slug FROM article WHERE slug = ?";

export const INSERT_ARTICLE =
  'INSERT INTO "article" ("id", "slug", "title", "description", "body", "author", "created_at", "updated_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING "id", "slug", "title", "description", "body", "author", "created_at", "updated_at"';

export const UPDATE_SLUG =
  'UPDATE "article" SET "slug" = ? WHERE "id" = ? RETURNING "id", "slug", "title", "description", "body", "author", "created_at", "updated_at"';

export const IS_TAG = "SELECT id FROM article_tag WHERE article = ? AND tag = ?";

export const INSERT_TAG =
  'INSERT INTO "article_tag" ("id", "article", "tag") VALUES (?, ?, ?) RETURNING "id", "article", "tag"';
