// How values cross postgres.js, so that a row is the same JSON on every backend:
// - int8 (bigint columns, count(*)) and numeric (sum, avg) arrive as numbers, as SQLite's
//   do; postgres.js would hand them over as strings, since they can exceed 2^53.
// - timestamptz and timestamp arrive as svc's ISO-8601 UTC text with milliseconds
//   (`2024-05-01T12:00:00.123Z`), not as Date objects; sent, svc's ISO text goes as it is.
// - json and jsonb arrive as their JSON text, which the generated decoders parse, exactly
//   as they parse SQLite's; sent, a string is already JSON text and is not encoded twice.
// - date stays `YYYY-MM-DD`.

/** The `types` option of postgres.js: parsers by result type OID, serializers by parameter type OID. */
export const POSTGRES_TYPES = {
  svc_int8: { to: 20, from: [20], parse: (x: string) => Number(x), serialize: (x: unknown) => String(x) },
  svc_numeric: { to: 1700, from: [1700], parse: (x: string) => Number(x), serialize: (x: unknown) => String(x) },
  svc_timestamp: { to: 1184, from: [1114, 1184], parse: isoFromPostgres, serialize: (x: unknown) => String(x) },
  svc_date: { to: 1082, from: [1082], parse: (x: string) => x, serialize: (x: unknown) => String(x) },
  svc_json: {
    to: 3802,
    from: [114, 3802],
    parse: (x: string) => x,
    serialize: (x: unknown) => (typeof x === "string" ? x : JSON.stringify(x)),
  },
};

const TIMESTAMP = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?(?:([+-])(\d\d)(?::(\d\d))?(?::(\d\d))?)?$/;

/**
 * PostgreSQL's ISO output (`2024-05-01 12:00:00.123456+00`; the session runs in UTC, but
 * any offset is honoured) as `2024-05-01T12:00:00.123Z`. Digits past milliseconds are
 * dropped, never rounded into the next second. Values without an ISO form (`infinity`,
 * BC dates, years past 9999) are returned as PostgreSQL wrote them.
 */
// This is the hot path for every timestamp of every row. Building the ISO text allocates
// several short strings, and a list page reads the same rows again and again: converted
// values are kept (a bounded map, emptied when full), so a timestamp seen before costs a
// lookup and no garbage. The common UTC form is cut and joined without a regular
// expression.
const seen = new Map<string, string>();
const SEEN_MAX = 8192;

export function isoFromPostgres(text: string): string {
  const known = seen.get(text);
  if (known !== undefined) return known;
  const iso = convert(text);
  if (seen.size >= SEEN_MAX) seen.clear();
  seen.set(text, iso);
  return iso;
}

function convert(text: string): string {
  const n = text.length;
  if (
    n >= 22 &&
    n <= 29 &&
    text.charCodeAt(4) === 45 && // -
    text.charCodeAt(10) === 32 && // space
    text.charCodeAt(n - 3) === 43 && // +
    text.charCodeAt(n - 2) === 48 && // 0
    text.charCodeAt(n - 1) === 48 // 0
  ) {
    const fractionEnd = n - 3;
    if (fractionEnd === 19) return `${text.slice(0, 10)}T${text.slice(11, 19)}.000Z`;
    if (text.charCodeAt(19) === 46) {
      const digits = text.slice(20, Math.min(fractionEnd, 23));
      return `${text.slice(0, 10)}T${text.slice(11, 19)}.${digits.length === 3 ? digits : digits.padEnd(3, "0")}Z`;
    }
  }
  return isoFromAnyOffset(text);
}

function isoFromAnyOffset(text: string): string {
  const m = TIMESTAMP.exec(text);
  if (m === null) return text;
  const ms = (m[7] ?? "").slice(0, 3).padEnd(3, "0");
  if (m[8] === undefined || (m[9] === "00" && (m[10] ?? "00") === "00" && (m[11] ?? "00") === "00")) {
    return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${ms}Z`;
  }
  const sign = m[8] === "-" ? -1 : 1;
  const offsetMs = sign * (Number(m[9]) * 3600 + Number(m[10] ?? 0) * 60 + Number(m[11] ?? 0)) * 1000;
  const utc = Date.UTC(
    Number(m[1]),
    Number(m[2]) - 1,
    Number(m[3]),
    Number(m[4]),
    Number(m[5]),
    Number(m[6]),
    Number(ms),
  );
  const date = new Date(utc - offsetMs);
  const year = date.getUTCFullYear();
  return year < 0 || year > 9999 || Number(m[1]) < 100 ? text : date.toISOString();
}
