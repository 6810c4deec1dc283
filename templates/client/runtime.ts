/** An error answer: its HTTP status and the message of the error envelope. */
export class ApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
  }
}

export interface ClientOptions {
  /** Where the server listens: `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** Sent as `Authorization: <scheme> <token>`: a listed bearer token or a JWT. */
  token?: string;
  /** The Authorization scheme word; default "Bearer". */
  scheme?: string;
  /** Headers sent with every call (a session cookie, say). */
  headers?: Record<string, string>;
  /** Another fetch; default the global one. */
  fetch?: typeof fetch;
}

export interface CallOptions {
  /** Runs an action once however often the call is retried with the same key. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

interface Shape {
  path: readonly string[];
  query: readonly string[];
  body: readonly string[] | null;
  /** Query arguments that travel as JSON text (lists and records). */
  json: readonly string[];
  handler?: string;
  /** Answered without the envelope (`respond`). */
  shaped?: boolean;
  /** The answer is text of another media type (`respond text`, `html`, `csv`, `type "…"`), returned as a string. */
  text?: boolean;
  /** Where an error body of a shaped answer holds the message; absent: the envelope's `error`. */
  message?: readonly (string | number)[];
  /** The answer is a stored file: its bytes, as a Blob (errors keep the envelope). */
  file?: boolean;
}

/** A Blob or File, from any realm (a page's, a worker's, Node's): what fetch sends as a file part. */
function isBlob(value: unknown): value is Blob {
  const v = value as Blob | null | undefined;
  return typeof v?.arrayBuffer === "function" && typeof v.size === "number";
}

class ClientBase {
  readonly options: ClientOptions;

  constructor(options: ClientOptions) {
    this.options = options;
  }

  protected async call(
    method: string,
    template: string,
    argsObject: object,
    shape: Shape,
    call: CallOptions = {},
  ): Promise<unknown> {
    const args = argsObject as Record<string, unknown>;
    const path = template.replace(/\{([^}]+)\}/g, (_, name: string) =>
      encodeURIComponent(String(args[name])),
    );
    const search = new URLSearchParams();
    for (const name of shape.query) {
      const value = args[name];
      if (value === undefined || value === null) continue;
      search.append(name, shape.json.includes(name) ? JSON.stringify(value) : String(value));
    }
    if (shape.handler !== undefined) search.append("handler", shape.handler);
    const headers: Record<string, string> = { Accept: "application/json", ...this.options.headers };
    if (this.options.token !== undefined)
      headers.Authorization = `${this.options.scheme ?? "Bearer"} ${this.options.token}`;
    if (call.idempotencyKey !== undefined) headers["Idempotency-Key"] = call.idempotencyKey;
    let body: string | FormData | undefined;
    if (shape.body !== null) {
      const sent: Record<string, unknown> = {};
      for (const name of shape.body) if (args[name] !== undefined) sent[name] = args[name];
      if (Object.values(sent).some(isBlob)) {
        // A file argument goes as a part of a multipart body; fetch writes its Content-Type.
        const form = new FormData();
        for (const [name, value] of Object.entries(sent)) {
          if (isBlob(value)) form.append(name, value, typeof (value as File).name === "string" ? (value as File).name : name);
          else if (value !== null) form.append(name, typeof value === "object" ? JSON.stringify(value) : String(value));
        }
        body = form;
      } else {
        body = JSON.stringify(sent);
        headers["Content-Type"] = "application/json";
      }
    }
    const query = search.toString();
    const url = this.options.baseUrl.replace(/\/+$/, "") + path + (query === "" ? "" : `?${query}`);
    const res = await (this.options.fetch ?? fetch)(url, {
      method,
      headers,
      body,
      signal: call.signal,
      redirect: "manual",
    });
    if (shape.file && res.ok) return res.blob();
    const text = await res.text();
    if (shape.text && res.ok) return text;
    if (shape.shaped && res.ok && text === "") return undefined;
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      throw new ApiError(res.status, res.ok ? "the answer is not JSON" : text || res.statusText);
    }
    if (shape.shaped) {
      if (res.ok) return answer;
      let at: unknown = answer;
      for (const key of shape.message ?? ["error"])
        at = at !== null && typeof at === "object" ? (at as Record<string, unknown>)[key] : undefined;
      throw new ApiError(res.status, typeof at === "string" ? at : res.statusText);
    }
    const envelope = answer as { ok?: unknown; data?: unknown; error?: unknown };
    if (!res.ok || envelope.ok !== true) {
      throw new ApiError(res.status, typeof envelope.error === "string" ? envelope.error : res.statusText);
    }
    return envelope.data;
  }
}
