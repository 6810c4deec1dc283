import { request } from "undici";

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: any;
}

/** One request over a real socket; the body is read whole. */
export async function call(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; json?: unknown } = {},
): Promise<Answer> {
  const headers = { ...options.headers };
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers["content-type"] ??= "application/json";
  }
  const res = await request(url, { method: (options.method ?? (body === undefined ? "GET" : "POST")) as "GET", headers, body });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}
