/** An error answer: its HTTP status and the message of the error envelope. */
export class ApiError extends Error {
  status;
  constructor(status, message) {
    super(message);
    this.name = "ApiError";
    this.status = status;
  }
}
/** A Blob or File, from any realm (a page's, a worker's, Node's): what fetch sends as a file part. */
function isBlob(value) {
  const v = value;
  return typeof v?.arrayBuffer === "function" && typeof v.size === "number";
}

class ClientBase {
  options;
  constructor(options) {
    this.options = options;
  }
  async call(method, template, argsObject, shape, call = {}) {
    const args = argsObject;
    const path = template.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(String(args[name])));
    const search = new URLSearchParams();
    for (const name of shape.query) {
      const value = args[name];
      if (value === undefined || value === null) continue;
      search.append(name, shape.json.includes(name) ? JSON.stringify(value) : String(value));
    }
    if (shape.handler !== undefined) search.append("handler", shape.handler);
    const headers = { Accept: "application/json", ...this.options.headers };
    if (this.options.token !== undefined)
      headers.Authorization = `${this.options.scheme ?? "Bearer"} ${this.options.token}`;
    if (call.idempotencyKey !== undefined) headers["Idempotency-Key"] = call.idempotencyKey;
    let body;
    if (shape.body !== null) {
      const sent = {};
      for (const name of shape.body) if (args[name] !== undefined) sent[name] = args[name];
      if (Object.values(sent).some(isBlob)) {
        // A file argument goes as a part of a multipart body; fetch writes its Content-Type.
        const form = new FormData();
        for (const [name, value] of Object.entries(sent)) {
          if (isBlob(value)) form.append(name, value, typeof value.name === "string" ? value.name : name);
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
    let answer;
    try {
      answer = JSON.parse(text);
    } catch {
      throw new ApiError(res.status, res.ok ? "the answer is not JSON" : text || res.statusText);
    }
    if (shape.shaped) {
      if (res.ok) return answer;
      let at = answer;
      for (const key of shape.message ?? ["error"])
        at = at !== null && typeof at === "object" ? at[key] : undefined;
      throw new ApiError(res.status, typeof at === "string" ? at : res.statusText);
    }
    const envelope = answer;
    if (!res.ok || envelope.ok !== true) {
      throw new ApiError(res.status, typeof envelope.error === "string" ? envelope.error : res.statusText);
    }
    return envelope.data;
  }
}
