// The queue in front of postgres.js (runtime/db/postgres/gate.ts), with stand-in queries:
// at most one statement per connection is handed over, the others wait in order; one still
// waiting at the end of its wait is never handed over (a 503), and one still running at its
// deadline is cancelled on the server, once.

import { describe, expect, test } from "@jest/globals";
import { type GatedQuery, SendGate } from "../../runtime/db/postgres/gate.js";

interface Stand extends GatedQuery<string> {
  finish(value: string): void;
  cancels: number;
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
    const gate = new SendGate(1, 1000);
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

  test("a statement still waiting when its wait ends is answered 503 and never sent", async () => {
    const gate = new SendGate(1, 60);
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
    const gate = new SendGate(2, 1000);
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
    const gate = new SendGate(1, 1000);
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
    const gate = new SendGate(1, 1000);
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
