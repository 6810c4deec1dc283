// The TechEmpower Framework Benchmarks database on PostgreSQL: `world` (10,000 rows, each a
// random number 1..10000) and `fortune` (TFB's 12 public fortune messages), in a schema of
// its own. The tables are TFB's (create-postgres.sql: unquoted names, so `randomNumber` is the
// column randomnumber) unless a server made them first: svc creates its own tables (it refuses a
// table that differs from its declaration), and its `randomNumber` column keeps its case. So
// the rows are written into whichever column the live table has.
//   node build/bench/tfb/data.js --db postgres://…/test --schema tfb_x [--drop]
import { parseArgs } from "node:util";
import postgres from "postgres";
import { seededRandom } from "../ulid.js";

export const WORLD_ROWS = 10_000;

/** TFB's fortunes (toolset/databases: the same twelve rows in every implementation's database). */
export const FORTUNES: readonly { id: number; message: string }[] = [
  { id: 1, message: "fortune: No such file or directory" },
  { id: 2, message: "A computer scientist is someone who fixes things that aren't broken." },
  { id: 3, message: "After enough decimal places, nobody gives a damn." },
  { id: 4, message: "A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1" },
  { id: 5, message: "A computer program does what you tell it to do, not what you want it to do." },
  { id: 6, message: "Emacs is a nice operating system, but I prefer UNIX. — Tom Christaensen" },
  { id: 7, message: "Any program that runs right is obsolete." },
  { id: 8, message: "A list is only as strong as its weakest link. — Donald Knuth" },
  { id: 9, message: "Feature: A bug with seniority." },
  { id: 10, message: "Computers make very fast, very accurate mistakes." },
  { id: 11, message: '<script>alert("This should not be displayed in a browser alert box.");</script>' },
  { id: 12, message: "フレームワークのベンチマーク" },
];

/** The fortune every implementation adds at request time, before sorting. */
export const EXTRA_FORTUNE = { id: 0, message: "Additional fortune added at request time." } as const;

/** randomNumber of world row id (index id - 1): 1..10000, the same on every run (seeded). */
export function worldNumbers(seed = 31): number[] {
  const rng = seededRandom(seed);
  return Array.from({ length: WORLD_ROWS }, () => 1 + Math.floor(rng.next() * WORLD_ROWS));
}

/** A postgres.js client for `url`, whose `?schema=` (svc's convention) becomes the search_path. */
export function connect(url: string, max: number): postgres.Sql {
  const u = new URL(url);
  const schema = u.searchParams.get("schema");
  u.searchParams.delete("schema");
  return postgres(u.toString(), {
    max,
    onnotice: () => undefined,
    ...(schema ? { connection: { search_path: schema } } : {}),
  });
}

/** The URL of `schema` on the server of `url`, as svc's `--db` and the baselines take it. */
export function schemaUrl(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set("schema", schema);
  return u.toString();
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function checkedSchema(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`schema name must match ${SCHEMA_NAME}, got "${schema}"`);
  return schema;
}

export async function createSchema(serverUrl: string, schema: string): Promise<void> {
  const sql = connect(serverUrl, 1);
  try {
    await sql.unsafe(`CREATE SCHEMA IF NOT EXISTS "${checkedSchema(schema)}"`);
  } finally {
    await sql.end({ timeout: 2 });
  }
}

export async function dropSchema(serverUrl: string, schema: string): Promise<void> {
  const sql = connect(serverUrl, 1);
  try {
    await sql.unsafe(`DROP SCHEMA IF EXISTS "${checkedSchema(schema)}" CASCADE`);
  } finally {
    await sql.end({ timeout: 2 });
  }
}

/** The live name of world's random-number column (`randomnumber` for TFB's table, `randomNumber` for svc's). */
async function numberColumn(sql: postgres.Sql): Promise<string | null> {
  const rows = await sql<{ column_name: string }[]>`
    SELECT column_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = 'world' AND lower(column_name) = 'randomnumber'`;
  return rows[0]?.column_name ?? null;
}

/**
 * Creates TFB's tables in the schema of `url` (`?schema=`) unless they are there, then makes
 * their rows exactly the seeded world and the twelve fortunes. Safe to run again: it also
 * undoes what an /updates run changed.
 */
export async function seedTfb(url: string): Promise<void> {
  const sql = connect(url, 1);
  try {
    await sql.begin(async (tx) => {
      await tx.unsafe(
        "CREATE TABLE IF NOT EXISTS world (id integer NOT NULL, randomNumber integer NOT NULL DEFAULT 0, PRIMARY KEY (id))",
      );
      await tx.unsafe(
        "CREATE TABLE IF NOT EXISTS fortune (id integer NOT NULL, message varchar(2048) NOT NULL, PRIMARY KEY (id))",
      );
    });
    const column = await numberColumn(sql);
    if (column === null) throw new Error("the world table has no randomNumber column");
    const numbers = worldNumbers();
    await sql.begin(async (tx) => {
      await tx`DELETE FROM world`;
      await tx`DELETE FROM fortune`;
      await tx.unsafe(
        `INSERT INTO world (id, "${column}") SELECT i, (($1::int[])[i]) FROM generate_series(1, ${WORLD_ROWS}) AS i`,
        [numbers as never],
      );
      for (const f of FORTUNES) await tx`INSERT INTO fortune (id, message) VALUES (${f.id}, ${f.message})`;
    });
    await sql`ANALYZE world`;
    await sql`ANALYZE fortune`;
  } finally {
    await sql.end({ timeout: 2 });
  }
}

/** Every world row as id → randomNumber, read outside any server under test. */
export async function readWorld(url: string): Promise<Map<number, number>> {
  const sql = connect(url, 1);
  try {
    const column = await numberColumn(sql);
    if (column === null) throw new Error("the world table has no randomNumber column");
    const rows = await sql.unsafe<{ id: number; n: number }[]>(`SELECT id::int AS id, "${column}"::int AS n FROM world`);
    return new Map(rows.map((r) => [r.id, r.n]));
  } finally {
    await sql.end({ timeout: 2 });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { db: { type: "string" }, schema: { type: "string" }, drop: { type: "boolean" } },
    strict: true,
  });
  if (!values.db || !values.schema) {
    console.error("usage: node build/bench/tfb/data.js --db postgres://user@host:5432/db --schema NAME [--drop]");
    process.exit(2);
  }
  if (values.drop) {
    await dropSchema(values.db, values.schema);
    console.log(`dropped schema ${values.schema}`);
    return;
  }
  await createSchema(values.db, values.schema);
  await seedTfb(schemaUrl(values.db, values.schema));
  console.log(`schema ${values.schema}: world (${WORLD_ROWS} rows) and fortune (${FORTUNES.length} rows) ready`);
}

if (process.argv[1]?.endsWith("/tfb/data.js")) {
  main().catch((error: Error) => {
    console.error(`tfb data: ${error.message}`);
    process.exit(1);
  });
}
