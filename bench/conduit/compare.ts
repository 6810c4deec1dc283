// Whether svc and the baseline answer alike. The list must be byte-for-byte the same; a
// created article differs only where it must (its times, and its slug's id suffix when the
// title was taken), so those are masked before comparing.

export interface Answer {
  status: number;
  body: string;
  /** The Location header with scheme and host cut off (each server has its own port). */
  location: string | null;
}

const VOLATILE = new Set(["createdAt", "updatedAt"]);
// A taken title's slug ends in `-<the new row's ULID, lowercased>`.
const ID_SUFFIX = /-[0-9a-hjkmnp-tv-z]{26}$/;

/** The JSON text with times replaced by "<time>" and slug id suffixes by "-<id>". */
export function masked(json: string): string {
  return JSON.stringify(JSON.parse(json), (key, value: unknown) => {
    if (VOLATILE.has(key) && typeof value === "string") return "<time>";
    if (key === "slug" && typeof value === "string") return value.replace(ID_SUFFIX, "-<id>");
    return value;
  });
}

/** The path (and query) of a Location header; null for none. */
export function locationPath(location: string | null): string | null {
  if (location === null) return null;
  const url = new URL(location);
  return url.pathname + url.search;
}

/**
 * What differs between two answers to the same request, or null when they agree: the status,
 * and the body (exactly, or with volatile fields masked when `mask`) and the Location path.
 */
export function difference(svc: Answer, baseline: Answer, mask: boolean): string | null {
  if (svc.status !== baseline.status) return `status ${svc.status} (svc) vs ${baseline.status} (baseline)`;
  const a = mask ? masked(svc.body) : svc.body;
  const b = mask ? masked(baseline.body) : baseline.body;
  if (a !== b) return `bodies differ:\n  svc:      ${a.slice(0, 400)}\n  baseline: ${b.slice(0, 400)}`;
  const la = mask && svc.location ? svc.location.replace(ID_SUFFIX, "-<id>") : svc.location;
  const lb = mask && baseline.location ? baseline.location.replace(ID_SUFFIX, "-<id>") : baseline.location;
  if (la !== lb) return `Location ${la} (svc) vs ${lb} (baseline)`;
  return null;
}
