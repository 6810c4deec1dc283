import mysql from "mysql2";
import type { Connection } from "mysql2";
import { declaredTables } from "../../../../runtime/db/net/migrate.js";
import { parseNetUrl } from "../../../../runtime/db/net/url.js";
import { queryConstant } from "../../../../runtime/db/mysql/conn.js";
import { planMysql } from "../../../../runtime/db/mysql/migrate.js";
import { serverKind, sessionStatements } from "../../../../runtime/db/mysql/session.js";
import type { SchemaSpec, TableSpec } from "../../../../runtime/contract/index.js";
import { mysqlLiveSchema, mysqlSession } from "../../../../runtime/db/mysql/evolve.js";
import { planAtStart } from "../../../../runtime/migrate/at-start.js";
import { mysqlWriter } from "../../../../runtime/migrate/mysql.js";
import { ownedColumns } from "../../../../runtime/migrate/plan.js";
import { type LiveAnswer, type LiveReport, type LiveStatement, type LiveType, offsetFromMessage } from "../live.js";
import { schemaFindings, standIns } from "../live-plan.js";

// `svc check --db mysql://…`: every statement prepared by the live server (never run) on
// one connection set up as the server sets up its own (mysql/session.ts). MySQL's DDL
// cannot be rolled back, so a table the server would create or extend at start is
// created as a TEMPORARY table of the declared shape for this connection only, which
// shadows the real one and disappears with the connection.

// mysql2's column type codes (lib/constants/types.js).
const TYPES: Record<number, [LiveType, string]> = {
  253: ["text", "varchar"],
  254: ["text", "char"],
  15: ["text", "varchar"],
  1: ["int", "tinyint"],
  2: ["int", "smallint"],
  3: ["int", "int"],
  8: ["int", "bigint"],
  9: ["int", "mediumint"],
  13: ["int", "year"],
  4: ["number", "float"],
  5: ["number", "double"],
  0: ["number", "decimal"],
  246: ["number", "decimal"],
  7: ["timestamp", "timestamp"],
  12: ["timestamp", "datetime"],
  10: ["date", "date"],
  245: ["json", "json"],
};
// TEXT columns and MariaDB's JSON functions (mediumtext, longtext) are the blob types with a
// text character set; with the binary one they are bytes.
const BLOBS: Record<number, string> = { 249: "tinytext", 250: "mediumtext", 251: "longtext", 252: "text" };
const BINARY_CHARSET = 63;

export async function liveMysql(
  url: string,
  tables: readonly TableSpec[],
  statements: readonly LiveStatement[],
  schema?: SchemaSpec,
): Promise<LiveReport> {
  const target = parseNetUrl(url, "mysql");
  const conn = mysql.createConnection({
    uri: target.driverUrl,
    connectTimeout: target.settings.connectTimeoutMs,
    charset: "UTF8MB4_BIN",
    multipleStatements: false,
  });
  conn.on("error", () => undefined);
  try {
    const version = await queryConstant<{ version: string }[]>(conn, "SELECT VERSION() AS version");
    for (const statement of sessionStatements(
      serverKind(String(version[0]?.version ?? "")),
      target.settings.requestTimeoutMs,
    )) {
      await queryConstant(conn, statement);
    }
    const declared = declaredTables(tables, "mysql");
    const session = mysqlSession(conn);
    const live = await mysqlLiveSchema(session);
    const writer = mysqlWriter(serverKind(String(version[0]?.version ?? "")));
    const app = (await queryConstant<{ db: string | null }[]>(conn, "SELECT DATABASE() AS db"))[0]?.db ?? null;
    const { plan: evolve } = await planAtStart(session, writer, tables, schema, live, app);
    const plan = await planMysql(conn, declared, (table) => ownedColumns(evolve, table));
    const report: LiveReport = { statements: [], ...schemaFindings(plan, evolve) };
    const reshaped = standIns("mysql", tables, live.tables, plan, evolve, (n) => `\`${n.replace(/`/g, "``")}\``);
    const shadow = new Set([...plan.create.map((t) => t.name), ...plan.add.map((a) => a.table)]);
    for (const table of declared) {
      if (!shadow.has(table.name) || reshaped.has(table.name)) continue;
      await queryConstant(conn, table.ddl.createTable.replace(/^CREATE TABLE /, "CREATE TEMPORARY TABLE "));
    }
    for (const statement of [...reshaped.values()].flat()) await queryConstant(conn, statement);
    for (const s of statements) report.statements.push(await prepare(conn, s));
    return report;
  } finally {
    await new Promise<void>((resolve) => conn.end(() => resolve()));
  }
}

function prepare(conn: Connection, s: LiveStatement): Promise<LiveAnswer> {
  return new Promise((resolve) => {
    conn.prepare(s.text, (err, statement) => {
      if (err) {
        resolve({
          name: s.name,
          error: { message: err.message, offset: offsetFromMessage(s.text, err.message) },
          columns: [],
        });
        return;
      }
      const columns = (
        (statement as unknown as { columns?: { name: string; columnType: number; characterSet: number }[] }).columns ??
        []
      ).map((c) => {
        const blob = BLOBS[c.columnType];
        if (blob !== undefined) {
          return c.characterSet === BINARY_CHARSET
            ? { name: c.name, type: "other" as const, typeName: blob.replace("text", "blob") }
            : { name: c.name, type: "text" as const, typeName: blob };
        }
        const [type, typeName] = TYPES[c.columnType] ?? ["other" as const, `type ${c.columnType}`];
        return { name: c.name, type, typeName };
      });
      conn.unprepare(s.text);
      resolve({ name: s.name, error: null, columns });
    });
  });
}
