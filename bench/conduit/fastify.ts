// The Fastify 5 baseline for examples/conduit's two counted endpoints, written as a user
// would: `GET /api/articles` and `POST /api/articles` with the same SQL as svc's generated
// server (sql.ts) through better-sqlite3, tokens verified with jose (HS256, iss/aud/exp/sub,
// verified tokens remembered until they expire, as svc's runtime does), and Conduit's
// answer and error shapes.
//   JWT_SECRET=… node fastify.js --listen 127.0.0.1:PORT --db FILE [--stop-with-stdin]
import Database from "better-sqlite3";
import Fastify from "fastify";
import type { FastifyReply, FastifyRequest } from "fastify";
import { jwtVerify } from "jose";
import { createSecretKey } from "node:crypto";
import { MAX_BODY_BYTES, parseBaselineArgs, stopOnSignal } from "../baselines/common.js";
import { ulid } from "../ulid.js";
import * as sql from "./sql.js";
import { conduitSlug } from "./slug.js";

const options = parseBaselineArgs(process.argv.slice(2));
const secret = process.env.JWT_SECRET ?? "";
if (Buffer.byteLength(secret) < 32) {
  console.error("JWT_SECRET must be at least 32 bytes");
  process.exit(2);
}
const key = createSecretKey(Buffer.from(secret, "utf8"));

const db = new Database(options.db, { fileMustExist: true });
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
db.pragma("foreign_keys = ON");
const q = {
  articles: db.prepare(sql.ARTICLES),
  articlesCount: db.prepare(sql.ARTICLES_COUNT),
  articleView: db.prepare(sql.ARTICLE_VIEW),
  articleBySlug: db.prepare(sql.ARTICLE_BY_SLUG),
  insertArticle: db.prepare(sql.INSERT_ARTICLE),
  updateSlug: db.prepare(sql.UPDATE_SLUG),
  isTag: db.prepare(sql.IS_TAG),
  insertTag: db.prepare(sql.INSERT_TAG),
};

class Failure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const verified = new Map<string, { sub: string; exp: number }>();

/** The signed-in account's id, null when no Authorization header came; a bad token is a 401. */
async function caller(request: FastifyRequest): Promise<string | null> {
  const header = request.headers.authorization;
  if (header === undefined) return null;
  const match = /^(?:Token|Bearer) +(\S+)$/.exec(header);
  if (!match) throw new Failure(401, "the Authorization header must be `Token <jwt>`");
  const token = match[1];
  const hit = verified.get(token);
  if (hit !== undefined && hit.exp * 1000 > Date.now()) return hit.sub;
  try {
    const { payload } = await jwtVerify(token, key, {
      issuer: "conduit",
      audience: "conduit",
      algorithms: ["HS256"],
      requiredClaims: ["exp", "sub"],
    });
    if (typeof payload.sub !== "string" || payload.sub === "") throw new Error("the token has no subject");
    if (verified.size >= 10_000) verified.clear();
    verified.set(token, { sub: payload.sub, exp: payload.exp! });
    return payload.sub;
  } catch (error) {
    throw new Failure(401, `invalid token: ${(error as Error).message}`);
  }
}

type Row = Record<string, unknown>;

/** A row of ARTICLES or ARTICLE_VIEW in Conduit's shape: JSON columns parsed, favorited a boolean. */
function articleOf(row: Row): Row {
  row.tagList = JSON.parse(row.tagList as string);
  row.favorited = row.favorited === 1;
  row.author = JSON.parse(row.author as string);
  return row;
}

function required(value: string, what: string): string {
  const t = value.trim();
  if (t === "") throw new Failure(422, `${what} can't be blank`);
  return t;
}

// No coercion (a number is not a title, as in svc) and no silent removal of unknown members.
const app = Fastify({
  logger: false,
  bodyLimit: MAX_BODY_BYTES,
  ajv: { customOptions: { coerceTypes: false, removeAdditional: false } },
});
const INTEGER = { type: "string", pattern: "^-?[0-9]{1,15}$" };

app.setErrorHandler((error: Error & { validation?: unknown; statusCode?: number }, _request, reply: FastifyReply) => {
  const status =
    error instanceof Failure ? error.status : error.validation ? 422 : (error.statusCode ?? 500) < 500 ? error.statusCode! : 500;
  if (status === 500) console.error(error);
  void reply.code(status).send({ errors: { body: [status === 500 ? "internal error" : error.message] } });
});

app.get(
  "/api/articles",
  {
    schema: {
      querystring: {
        type: "object",
        properties: {
          tag: { type: "string" },
          author: { type: "string" },
          favorited: { type: "string" },
          limit: INTEGER,
          offset: INTEGER,
        },
        additionalProperties: false,
      },
    },
  },
  async (request) => {
    const query = request.query as { tag?: string; author?: string; favorited?: string; limit?: string; offset?: string };
    const me = await caller(request);
    const limit = query.limit === undefined ? 20 : Number(query.limit);
    const offset = query.offset === undefined ? 0 : Number(query.offset);
    if (limit < 1 || limit > 100) throw new Failure(422, "limit must be between 1 and 100");
    if (offset < 0) throw new Failure(422, "offset must not be negative");
    const tag = query.tag ?? null;
    const author = query.author ?? null;
    const favorited = query.favorited ?? null;
    return db.transaction(() => ({
      articles: (q.articles.all(me, me, tag, tag, author, author, favorited, favorited, limit, offset) as Row[]).map(articleOf),
      articlesCount: (q.articlesCount.get(tag, tag, author, author, favorited, favorited) as { n: number }).n,
    })).immediate();
  },
);

interface NewArticle {
  title: string;
  description: string;
  body: string;
  tagList?: string[];
}

app.post(
  "/api/articles",
  {
    schema: {
      body: {
        type: "object",
        required: ["article"],
        additionalProperties: false,
        properties: {
          article: {
            type: "object",
            required: ["title", "description", "body"],
            additionalProperties: false,
            properties: {
              title: { type: "string" },
              description: { type: "string" },
              body: { type: "string" },
              tagList: { type: "array", maxItems: 20, items: { type: "string" } },
            },
          },
        },
      },
    },
  },
  async (request, reply) => {
    const me = await caller(request);
    if (me === null) throw new Failure(401, "sign in first");
    const article = (request.body as { article: NewArticle }).article;
    const title = required(article.title, "title");
    const base = conduitSlug(title);
    if (base === "") throw new Failure(422, "title must contain a letter or a digit");
    const description = required(article.description, "description");
    const body = required(article.body, "body");
    const view = db.transaction(() => {
      const taken = q.articleBySlug.get(base) !== undefined;
      const now = new Date().toISOString();
      const draft = q.insertArticle.get(ulid(Date.now()), null, title, description, body, me, now, now) as Row;
      const id = draft.id as string;
      const created = q.updateSlug.get(taken ? `${base}-${id.toLowerCase()}` : base, id) as Row;
      for (const name of new Set(article.tagList ?? [])) {
        const tag = required(name, "tag");
        if (q.isTag.get(id, tag) === undefined) q.insertTag.get(ulid(Date.now()), id, tag);
      }
      return articleOf(q.articleView.get(me, me, created.slug) as Row);
    }).immediate();
    void reply
      .code(201)
      .header("location", `http://${request.headers.host}/api/articles/${view.slug as string}`)
      .send({ article: view });
    return reply;
  },
);

app.listen({ host: options.host, port: options.port }).catch((error: Error) => {
  console.error(`fastify: cannot listen on ${options.host}:${options.port}: ${error.message}`);
  process.exit(1);
});
stopOnSignal(async () => {
  await app.close();
  db.close();
}, options.stopWithStdin);
