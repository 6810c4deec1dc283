import { describe, expect, test } from "@jest/globals";
import { ParameterError, toPositional } from "../../../runtime/db/sqlite-params.js";

describe("toPositional", () => {
  test("numbered parameters become anonymous ones fed through slots", () => {
    expect(toPositional("SELECT * FROM task WHERE id = ?1 AND status = ?2", [0, 1])).toEqual({
      text: "SELECT * FROM task WHERE id = ? AND status = ?",
      order: [0, 1],
    });
  });

  test("a parameter used twice is fed the same argument twice", () => {
    expect(toPositional("WHERE (?1 IS NULL OR status = ?1) LIMIT ?2", [0, 1])).toEqual({
      text: "WHERE (? IS NULL OR status = ?) LIMIT ?",
      order: [0, 0, 1],
    });
  });

  test("slots map each number to its argument index", () => {
    expect(toPositional("VALUES (?2, ?1, ?3)", [4, 7, 5]).order).toEqual([7, 4, 5]);
  });

  test("a ? inside strings, quoted identifiers and comments is left alone", () => {
    const sql = [
      "SELECT 'is it ?1' AS q, \"col?2\", `x?1`, [y?1], 'it''s ?1'",
      "-- a comment ?1",
      "/* block ?2 */ FROM t WHERE a = ?1",
    ].join("\n");
    const out = toPositional(sql, [0]);
    expect(out.order).toEqual([0]);
    expect(out.text).toBe(sql.replace("a = ?1", "a = ?"));
  });

  test("a $ inside an identifier is not a parameter", () => {
    expect(toPositional("SELECT a$b FROM t WHERE x = ?1", [0])).toEqual({
      text: "SELECT a$b FROM t WHERE x = ?",
      order: [0],
    });
  });

  test("a bare ? takes the number after the largest seen, as SQLite numbers it", () => {
    expect(toPositional("SELECT ?2, ?, ?1", [0, 1, 2]).order).toEqual([1, 2, 0]);
  });

  test("multi-digit numbers", () => {
    const slots = Array.from({ length: 12 }, (_, i) => i);
    expect(toPositional("SELECT ?12, ?1", slots)).toEqual({ text: "SELECT ?, ?", order: [11, 0] });
  });

  test("a parameter without a slot is refused", () => {
    expect(() => toPositional("SELECT ?3", [0, 1])).toThrow(
      new ParameterError("parameter ?3 has no slot (the statement lists 2 parameters)"),
    );
    expect(() => toPositional("SELECT ?0", [0])).toThrow(ParameterError);
  });

  test("named parameters are refused", () => {
    expect(() => toPositional("SELECT * FROM t WHERE a = :a", [])).toThrow(
      "named parameter :a is not supported; use ?N",
    );
    expect(() => toPositional("SELECT * FROM t WHERE a = @a", [])).toThrow("named parameter @a");
    expect(() => toPositional("SELECT * FROM t WHERE a = $a", [])).toThrow("named parameter $a");
  });

  test("unterminated quotes and comments end the scan instead of hanging", () => {
    expect(toPositional("SELECT ?1, 'open", [0]).order).toEqual([0]);
    expect(toPositional("SELECT ?1 /* open", [0]).order).toEqual([0]);
    expect(toPositional("SELECT ?1 -- tail", [0]).order).toEqual([0]);
  });
});
