// Revocation below HTTP (runtime/revocation): the runtime's own table is the DDL the
// compiler would make for it, and the per-process copy honours its staleness bound, the
// millisecond `iat`, a token without `iat`, and never moves a revocation earlier; on a real
// SQLite database with a fake clock.

import { afterEach, beforeEach, describe, expect, test } from "../../support/jest.js";
import { REVOCATIONS_TABLE as RESERVED } from "../../../compiler/analyze/stores/session-store.js";
import { allTableDdl } from "../../../compiler/analyze/sql/ddl/index.js";
import type { FieldModel } from "../../../compiler/analyze/model/model.js";
import { openSqlite, type SqliteDatabase } from "../../../runtime/db/sqlite/index.js";
import {
  MIN_RETENTION_MS,
  REFRESH_MS,
  REVOCATIONS_TABLE,
  Revocations,
  revocationStatements,
  revocationsTable,
  rowId,
} from "../../../runtime/revocation/index.js";
import type { StatementSpec } from "../../../runtime/contract/index.js";
import { memoryLogger } from "./helpers.js";

const field = (name: string, type: FieldModel["type"]): FieldModel => ({ name, type, enumValues: [], nullable: false, default: null, doc: "" });

test("the table is what the compiler's DDL makes for the same shape, in every dialect", () => {
  const expected = allTableDdl({
    module: "svc",
    name: REVOCATIONS_TABLE,
    doc: "",
    primaryKey: ["id"],
    fields: [field("id", "id"), field("subject", "text"), field("not_before", "int"), field("expires_at", "int")],
    indexes: [{ name: `${REVOCATIONS_TABLE}_expires_at_idx`, unique: false, columns: [{ name: "expires_at", desc: false }] }],
  });
  expect(revocationsTable.ddl).toEqual(expected);
  // The name the analyzer keeps resources from (SVC7052).
  expect(RESERVED).toBe(REVOCATIONS_TABLE);
});

describe("the per-process copy", () => {
  const row: StatementSpec = { name: "row", sql: { sqlite: { text: `SELECT not_before, expires_at FROM ${REVOCATIONS_TABLE} WHERE id = ?`, slots: [0] } } };
  let db: SqliteDatabase;
  let now: number;
  let here: Revocations;
  let there: Revocations;

  beforeEach(async () => {
    db = openSqlite(":memory:");
    await db.migrate([revocationsTable]);
    db.prepare([...Object.values(revocationStatements), row]);
    now = Date.UTC(2026, 0, 1);
    here = new Revocations(db, memoryLogger().log, 3600, () => now);
    there = new Revocations(db, memoryLogger().log, 3600, () => now);
  });

  afterEach(async () => {
    await db.close();
  });

  const iat = (ms: number) => ms / 1000;

  test("the revoking process refuses at once; another one once its copy is REFRESH_MS old", async () => {
    expect(await there.stands("ada", iat(now - 1))).toBe(true);
    now += 10;
    await db.transaction((tx) => here.revoke(tx, "ada"));
    expect(await here.stands("ada", iat(now - 1))).toBe(false);
    // Stale, within the bound: the other process still has the old copy and reads nothing.
    now += REFRESH_MS - 11;
    expect(there.stands("ada", iat(now - REFRESH_MS))).toBe(true);
    now += 1;
    expect(await there.stands("ada", iat(now - REFRESH_MS))).toBe(false);
    // Another subject, and a token issued after the revocation, stand.
    expect(await there.stands("grace", iat(now - REFRESH_MS))).toBe(true);
    expect(await there.stands("ada", iat(now))).toBe(true);
  });

  test("to the millisecond: a token of the same second but after the revocation stands; one without iat does not", async () => {
    await db.transaction((tx) => here.revoke(tx, "ada"));
    expect(await here.stands("ada", iat(now))).toBe(true);
    expect(await here.stands("ada", iat(now - 1))).toBe(false);
    expect(await here.stands("ada", Math.floor(iat(now)) - 1)).toBe(false);
    expect(await here.stands("ada", undefined)).toBe(false);
    expect(await here.stands("ada", "soon")).toBe(false);
  });

  test("a second revocation moves the moment later, never earlier, and the row lives at least a day", async () => {
    await db.transaction((tx) => here.revoke(tx, "ada"));
    const first = now;
    // A process whose clock lags revokes again.
    const lagging = new Revocations(db, null, 3600, () => first - 60_000);
    await db.transaction((tx) => lagging.revoke(tx, "ada"));
    expect(await db.one(row, [rowId("ada")])).toEqual({ not_before: first, expires_at: first + MIN_RETENTION_MS });
    now += 5_000;
    await db.transaction((tx) => here.revoke(tx, "ada"));
    expect(await db.one(row, [rowId("ada")])).toEqual({ not_before: now, expires_at: now + MIN_RETENTION_MS });
  });

  test("a subject longer than any key is one row, by its digest", async () => {
    const long = "x".repeat(5000);
    await db.transaction((tx) => here.revoke(tx, long));
    expect(rowId(long)).toMatch(/^[0-9a-f]{64}$/);
    now += REFRESH_MS;
    expect(await there.stands(long, iat(now - REFRESH_MS - 1))).toBe(false);
  });
});
