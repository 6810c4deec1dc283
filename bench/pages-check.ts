import type { LoadRequest } from "./endpoints.js";
import type { SeededTask } from "./seed.js";

/** The four requests the pages bench compares: two pages, each next to the JSON it is built from. */
export const PAGE_LOADS = ["list_json", "list_page", "get_json", "get_page"] as const;
export type PageLoad = (typeof PAGE_LOADS)[number];

export const LIST_JSON_PATH = "/api/task_tracker:list_tasks?limit=50";
/** The page's route takes list_tasks' default limit, 50. */
export const LIST_PAGE_PATH = "/tasks";
/** The /tasks page as a browser asks for it. */
export const LIST_PAGE_REQUEST: LoadRequest = { method: "GET", path: LIST_PAGE_PATH, headers: { accept: "text/html" } };
export const getJsonPath = (id: string): string => `/api/task_tracker:get_task?id=${encodeURIComponent(id)}`;
export const getPagePath = (id: string): string => `/tasks/${encodeURIComponent(id)}`;

/**
 * Checks, before any load, that the pages render the seeded data (50 linked rows, newest first;
 * a task's own title and id), so the figures measure pages doing their real work, not an error
 * page. Returns each answer's size in bytes. Throws on any difference.
 */
export async function checkPages(baseUrl: string, seeded: readonly SeededTask[]): Promise<Record<PageLoad, number>> {
  const newest = [...seeded].reverse().slice(0, 50);
  const list = await get(baseUrl, LIST_PAGE_PATH, "text/html");
  const linked = [...list.text.matchAll(/href="\/tasks\/([0-9A-Z]{26})"/g)].map((m) => m[1]);
  expect(
    linked.length === 50 && linked.every((id, i) => id === newest[i].id),
    "/tasks links the newest 50 seeded tasks, newest first",
    list.text,
  );

  const sample = seeded[Math.floor(seeded.length / 2)];
  const detail = await get(baseUrl, getPagePath(sample.id), "text/html");
  expect(
    detail.text.includes(`/api/task_tracker/${sample.id}?handler=delete_task`) &&
      detail.text.includes(`<time datetime="${sample.created_at}">`),
    "/tasks/:id renders the seeded task",
    detail.text,
  );

  const listJson = await get(baseUrl, LIST_JSON_PATH, "application/json");
  const getJson = await get(baseUrl, getJsonPath(sample.id), "application/json");
  return { list_json: listJson.bytes, list_page: list.bytes, get_json: getJson.bytes, get_page: detail.bytes };
}

async function get(baseUrl: string, path: string, type: string) {
  const response = await fetch(baseUrl + path, { signal: AbortSignal.timeout(5000) });
  const text = await response.text();
  const contentType = response.headers.get("content-type") ?? "";
  expect(
    response.status === 200 && contentType.startsWith(type),
    `GET ${path} answers 200 ${type}`,
    `${response.status} ${contentType} ${text}`,
  );
  return { text, bytes: Buffer.byteLength(text) };
}

function expect(condition: boolean, what: string, got: string): void {
  if (!condition) throw new Error(`check failed: ${what}; got ${got.slice(0, 400)}`);
}
