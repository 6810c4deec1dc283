// The table store (`[uploads] store = "database"`): one row per distinct file in
// `svc_uploads`, its bytes in a column of each backend's binary type (SQLite BLOB,
// PostgreSQL bytea, MySQL/MariaDB LONGBLOB). A file is read into memory once to be
// inserted, and a row once to be served: `max_file_size` bounds both (docs/operations.md).

import { readFile, unlink } from "node:fs/promises";
import { Readable } from "node:stream";
import type { Database, StatementSpec, TableSpec } from "../contract/index.js";
import type { UploadedFile } from "./file.js";
import type { StoredBytes, UploadStore } from "./store.js";

const SHA256 = /^[0-9a-f]{64}$/u;

export const UPLOADS_TABLE: TableSpec = {
  name: "svc_uploads",
  ddl: {
    sqlite: {
      createTable: `CREATE TABLE IF NOT EXISTS "svc_uploads" (\n  "sha256" TEXT NOT NULL PRIMARY KEY,\n  "bytes" BLOB NOT NULL,\n  "size" INTEGER NOT NULL\n)`,
      columns: [
        { name: "sha256", definition: `"sha256" TEXT NOT NULL`, sqlType: "TEXT", nullable: false, hasDefault: false },
        { name: "bytes", definition: `"bytes" BLOB NOT NULL`, sqlType: "BLOB", nullable: false, hasDefault: false },
        { name: "size", definition: `"size" INTEGER NOT NULL`, sqlType: "INTEGER", nullable: false, hasDefault: false },
      ],
      createIndexes: [],
    },
    postgres: {
      createTable: `CREATE TABLE IF NOT EXISTS "svc_uploads" (\n  "sha256" text NOT NULL PRIMARY KEY,\n  "bytes" bytea NOT NULL,\n  "size" bigint NOT NULL\n)`,
      columns: [
        { name: "sha256", definition: `"sha256" text NOT NULL`, sqlType: "text", nullable: false, hasDefault: false },
        { name: "bytes", definition: `"bytes" bytea NOT NULL`, sqlType: "bytea", nullable: false, hasDefault: false },
        { name: "size", definition: `"size" bigint NOT NULL`, sqlType: "bigint", nullable: false, hasDefault: false },
      ],
      createIndexes: [],
    },
    mysql: {
      createTable:
        "CREATE TABLE IF NOT EXISTS `svc_uploads` (\n  `sha256` VARCHAR(64) NOT NULL PRIMARY KEY,\n  `bytes` LONGBLOB NOT NULL,\n  `size` BIGINT NOT NULL\n) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
      columns: [
        { name: "sha256", definition: "`sha256` VARCHAR(64) NOT NULL", sqlType: "varchar", nullable: false, hasDefault: false },
        { name: "bytes", definition: "`bytes` LONGBLOB NOT NULL", sqlType: "longblob", nullable: false, hasDefault: false },
        { name: "size", definition: "`size` BIGINT NOT NULL", sqlType: "bigint", nullable: false, hasDefault: false },
      ],
      createIndexes: [],
    },
  },
};

/** Args `(sha256, bytes, size)`: a row when the bytes are new, nothing when they are there. */
export const PUT_UPLOAD: StatementSpec = {
  name: "svc_uploads.put",
  sql: {
    sqlite: { text: `INSERT INTO "svc_uploads" ("sha256", "bytes", "size") VALUES (?, ?, ?) ON CONFLICT ("sha256") DO NOTHING`, slots: [0, 1, 2] },
    postgres: { text: `INSERT INTO "svc_uploads" ("sha256", "bytes", "size") VALUES ($1, $2::bytea, $3::bigint) ON CONFLICT ("sha256") DO NOTHING`, slots: [0, 1, 2] },
    mysql: { text: "INSERT IGNORE INTO `svc_uploads` (`sha256`, `bytes`, `size`) VALUES (?, ?, ?)", slots: [0, 1, 2] },
  },
};

/** Args `(sha256)`: the row's bytes. */
export const GET_UPLOAD: StatementSpec = {
  name: "svc_uploads.get",
  sql: {
    sqlite: { text: `SELECT "bytes" FROM "svc_uploads" WHERE "sha256" = ?`, slots: [0] },
    postgres: { text: `SELECT "bytes" FROM "svc_uploads" WHERE "sha256" = $1`, slots: [0] },
    mysql: { text: "SELECT `bytes` FROM `svc_uploads` WHERE `sha256` = ?", slots: [0] },
  },
};

export class DatabaseStore implements UploadStore {
  constructor(private readonly db: Database) {}

  async put(file: UploadedFile): Promise<void> {
    try {
      const bytes = await readFile(file.temp);
      await this.db.run(PUT_UPLOAD, [file.sha256, bytes, file.size]);
    } finally {
      await unlink(file.temp).catch(() => undefined);
    }
  }

  async get(sha256: string): Promise<StoredBytes | null> {
    if (!SHA256.test(sha256)) return null;
    const row = await this.db.one(GET_UPLOAD, [sha256]);
    const bytes = row?.bytes;
    if (!(bytes instanceof Uint8Array)) return null;
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return { size: buffer.length, open: () => Readable.from([buffer]) };
  }
}
