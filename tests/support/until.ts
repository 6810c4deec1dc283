/**
 * Reads until `done` holds, then returns what it read: waiting for the event itself (a job's
 * row, an empty queue), never a sleep standing in for it. Throws with the last value when
 * `timeoutMs` passes first.
 */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
