// The queue in front of postgres.js (runtime/db/postgres/gate.ts), with stand-in queries:
// at most one statement per lane (a one-connection client) is handed over, the others wait
// in order; one still
// waiting at the end of its wait is never handed over (a 503), one still running at its
// deadline is cancelled on the server, once, and one its connection lost unsent is sent again.

import { describe, expect, test } from "../support/jest.js";
import { type GatedQuery, SendGate, beginning } from "../../runtime/db/postgres/gate.js";

interface Stand extends GatedQuery<string> {
  finish(value: string): void;
  cancels: number;
}

/** A query that settles as postgres.js's do: `reject` (its own) settles it, and it is no longer active. */
function settling(): Stand {
  const q = stand();
  let finish!: (v: string) => void;
  let reject!: (err: unknown) => void;
  const p = new Promise<string>((res, rej) => ((finish = res), (reject = rej)));
  q.then = p.then.bind(p);
  q.finish = (v) => ((q.active = false), finish(v));
  q.reject = (err) => ((q.active = false), reject(err));
  return q;
}

/** A query as postgres.js hands it back: taken by a connection (`state`, `active`) at once. */
function stand(): Stand {
  let finish!: (v: string) => void;
  const p = new Promise<string>((resolve) => (finish = resolve));
  const q: Stand = {
    then: p.then.bind(p),
    state: { pid: 1 },
    active: true,
    cancels: 0,
    canceller: () => {
      q.cancels++;
      return Promise.reject(new Error("the cancel could not connect"));
    },
    finish: (v) => finish(v),
  };
  return q;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the send gate (postgres)", () => {
  test("one statement per slot is sent; the next waits and goes, in order, when a slot frees", async () => {
    const gate = new SendGate(["lane"], 1000, 4096);
    const sent: string[] = [];
    const a = stand();
    const b = stand();
    const first = gate.run(() => (sent.push("a"), a), Date.now() + 5000);
    const second = gate.run(() => (sent.push("b"), b), Date.now() + 5000);
    expect(sent).toEqual(["a"]);
    expect([gate.inFlight, gate.queued]).toEqual([1, 1]);
    a.finish("A");
    expect(await first).toBe("A");
    expect(sent).toEqual(["a", "b"]);
    b.finish("B");
    expect(await second).toBe("B");
    expect([gate.inFlight, gate.queued]).toEqual([0, 0]);
    gate.stop();
  });

  test("past queue_limit a statement is refused at once (503, Retry-After), never sent; those queued still go in order", async () => {
    const gate = new SendGate(["lane"], 1000, 2);
    const sent: string[] = [];
    const queries = [stand(), stand(), stand()];
    const results = queries.map((q, i) => gate.run(() => (sent.push(String(i)), q), Date.now() + 5000));
    const refused = gate.run(() => (sent.push("late"), stand()), Date.now() + 5000);
    await expect(refused).rejects.toMatchObject({
      status: 503,
      message: "database busy",
      headers: { "Retry-After": "1" },
    });
    expect([gate.inFlight, gate.queued]).toEqual([1, 2]);
    queries.forEach((q, i) => q.finish(`r${i}`));
    expect(await Promise.all(results)).toEqual(["r0", "r1", "r2"]);
    expect(sent).toEqual(["0", "1", "2"]);
    gate.stop();
  });

  test("each statement gets a lane nothing else is running on; a freed lane is handed on", async () => {
    const gate = new SendGate(["lane 1", "lane 2"], 1000, 4096);
    const on: string[] = [];
    const queries = [stand(), stand(), stand()];
    const results = queries.map((q) => gate.run((lane) => (on.push(lane), q), Date.now() + 5000));
    expect(on).toEqual(["lane 1", "lane 2"]);
    queries[1]!.finish("second");
    expect(await results[1]).toBe("second");
    expect(on).toEqual(["lane 1", "lane 2", "lane 2"]);
    queries[0]!.finish("first");
    queries[2]!.finish("third");
    expect(await Promise.all(results)).toEqual(["first", "second", "third"]);
    // The lane freed last is handed out first: idle connections stay idle and can time out.
    const next = stand();
    void gate.run((lane) => (on.push(lane), next), Date.now() + 5000);
    expect(on[3]).toBe("lane 2");
    next.finish("x");
    gate.stop();
  });

  test("a lane whose statement failed is replaced when renew says so, and kept otherwise", async () => {
    const renewed: string[] = [];
    const gate = new SendGate(["lane 1"], 1000, 4096, (lane: string, err) => {
      renewed.push(`${lane}: ${(err as Error).message}`);
      return (err as Error).message === "connection lost" ? `${lane}'` : lane;
    });
    const on: string[] = [];
    const fail = (message: string) => (lane: string) => {
      on.push(lane);
      return Object.assign(Promise.reject(new Error(message)), { state: null, active: false });
    };
    await expect(gate.run(fail("syntax error"), Date.now() + 5000)).rejects.toThrow("syntax error");
    await expect(gate.run(fail("connection lost"), Date.now() + 5000)).rejects.toThrow("connection lost");
    const q = stand();
    const last = gate.run((lane) => (on.push(lane), q), Date.now() + 5000);
    q.finish("ok");
    expect(await last).toBe("ok");
    expect(on).toEqual(["lane 1", "lane 1", "lane 1'"]);
    expect(renewed).toEqual(["lane 1: syntax error", "lane 1: connection lost"]);
    gate.stop();
  });

  test("a statement its lane's connection closed under, unsettled, is sent again on the lane that replaces it", async () => {
    const gate = new SendGate(["lane 1"], 1000, 4096, (lane: string, err) =>
      (err as { code?: string }).code === "CONNECTION_CLOSED" ? `${lane}'` : lane,
    );
    const lost = settling();
    const again = settling();
    const on: string[] = [];
    const queries = [lost, again];
    const result = gate.run((lane) => (on.push(lane), queries.shift()!), Date.now() + 5000);
    // postgres.js took it, then closed the connection without settling it: nothing ever would.
    gate.closed("lane 1");
    await sleep(0);
    expect(on).toEqual(["lane 1", "lane 1'"]);
    again.finish("answered");
    expect(await result).toBe("answered");
    expect([gate.inFlight, gate.queued]).toEqual([0, 0]);
    gate.stop();
  });

  test("a statement postgres.js settled as its connection closed keeps its answer; other lanes' are untouched", async () => {
    const gate = new SendGate(["lane 1", "lane 2"], 1000, 4096, (lane: string) => `${lane}'`);
    const failed = settling();
    const other = settling();
    const sent: string[] = [];
    const first = gate.run((lane) => (sent.push(lane), failed), Date.now() + 5000);
    const second = gate.run((lane) => (sent.push(lane), other), Date.now() + 5000);
    failed.reject!(Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" }));
    gate.closed("lane 1");
    await expect(first).rejects.toThrow("write CONNECTION_CLOSED");
    other.finish("B");
    expect(await second).toBe("B");
    expect(sent).toEqual(["lane 1", "lane 2"]);
    gate.stop();
  });

  test("a transaction whose connection closed before BEGIN was answered is begun again; once begun, it is postgres.js's to fail", async () => {
    const gate = new SendGate(["lane 1"], 1000, 4096, (lane: string) => `${lane}'`);
    const begun: string[] = [];
    const bodies: (() => void)[] = [];
    // A stand-in sql.begin: BEGIN is answered when the test says so, then the body runs.
    const tx = (lane: string) =>
      beginning<string>((began) => {
        begun.push(lane);
        return new Promise((resolve) => bodies.push(() => (began(), resolve(`done on ${lane}`))));
      });
    const lost = gate.run(tx, Date.now() + 5000);
    gate.closed("lane 1");
    await sleep(0);
    expect(begun).toEqual(["lane 1", "lane 1'"]);
    bodies[1]!();
    expect(await lost).toBe("done on lane 1'");

    let fail!: (err: unknown) => void;
    const running = gate.run(
      () =>
        beginning<string>((began) => {
          began();
          return new Promise((_, reject) => (fail = reject));
        }),
      Date.now() + 5000,
    );
    gate.closed("lane 1'");
    await sleep(0);
    fail(new Error("CONNECTION_CLOSED during the transaction"));
    await expect(running).rejects.toThrow("CONNECTION_CLOSED during the transaction");
    gate.stop();
  });

  test("a statement still waiting when its wait ends is answered 503 and never sent", async () => {
    const gate = new SendGate(["lane"], 60, 4096);
    const a = stand();
    void gate.run(() => a, Date.now() + 5000);
    let sentLate = false;
    const waited = gate.run(
      () => {
        sentLate = true;
        return stand();
      },
      Date.now() + 5000,
    );
    await expect(waited).rejects.toMatchObject({ status: 503, message: "database busy" });
    a.finish("A");
    await sleep(10);
    expect(sentLate).toBe(false);
    gate.stop();
  });

  test("a statement running past its deadline is cancelled on the server, once", async () => {
    const gate = new SendGate(["lane 1", "lane 2"], 1000, 4096);
    const slow = stand();
    const quick = stand();
    const running = gate.run(() => slow, Date.now() + 40);
    void gate.run(() => quick, Date.now() + 5000);
    await sleep(200);
    expect([slow.cancels, quick.cancels]).toEqual([1, 0]);
    slow.finish("late");
    quick.finish("ok");
    expect(await running).toBe("late");
    gate.stop();
  });

  test("a query not taken by a connection yet (its connection still opening) is left to connect_timeout", async () => {
    const gate = new SendGate(["lane"], 1000, 4096);
    const opening = stand();
    opening.state = null;
    opening.active = false;
    void gate.run(() => opening, Date.now() + 20);
    await sleep(120);
    expect(opening.cancels).toBe(0);
    opening.finish("x");
    gate.stop();
  });

  test("a statement that fails before it is sent frees its slot for the next", async () => {
    const gate = new SendGate(["lane"], 1000, 4096);
    const a = stand();
    void gate.run(() => a, Date.now() + 5000);
    const broken = gate.run<string>(() => {
      throw new Error("cannot build the query");
    }, Date.now() + 5000);
    const b = stand();
    const after = gate.run(() => b, Date.now() + 5000);
    a.finish("A");
    await expect(broken).rejects.toThrow("cannot build the query");
    b.finish("B");
    expect(await after).toBe("B");
    expect([gate.inFlight, gate.queued]).toEqual([0, 0]);
    gate.stop();
  });
});
