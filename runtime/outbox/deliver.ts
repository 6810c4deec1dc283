// One delivery attempt: a POST of the signed body to the subscriber's URL, bounded by a
// timeout. Never throws: the outcome says what happened, for the log and the retry.

export interface Attempt {
  /** The answer's status; null when none came (timeout, connection error). */
  status: number | null;
  /** 2xx: delivered. Anything else is tried again later. */
  ok: boolean;
  /** Why it failed, for the log and the row; null when delivered. */
  error: string | null;
}

export interface PostOptions {
  timeoutMs: number;
  /** Aborted when the server shuts down: the attempt stops and is not counted. */
  stop: AbortSignal;
}

export async function post(url: string, headers: Record<string, string>, body: string, options: PostOptions): Promise<Attempt> {
  const signal = AbortSignal.any([options.stop, AbortSignal.timeout(options.timeoutMs)]);
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", "user-agent": "svc-webhooks" },
      body,
      signal,
      redirect: "manual",
    });
    // The answer's body is of no use; read it so the connection can be reused.
    await res.arrayBuffer().catch(() => undefined);
    const ok = res.status >= 200 && res.status < 300;
    return { status: res.status, ok, error: ok ? null : `answered ${res.status}` };
  } catch (err) {
    if (options.stop.aborted) return { status: null, ok: false, error: "stopped" };
    const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
    return { status: null, ok: false, error: timedOut ? `no answer within ${options.timeoutMs} ms` : connectionError(err) };
  }
}

function connectionError(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  const code = cause !== null && typeof cause === "object" && "code" in cause ? String((cause as { code: unknown }).code) : null;
  const message = cause instanceof Error ? cause.message : String(cause);
  return code === null ? `connection failed: ${message}` : `connection failed: ${code}`;
}
