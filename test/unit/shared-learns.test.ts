/**
 * Reads of one device share a learn only when the learn started after they arrived:
 * no read is answered with what the device said before the read was made.
 */
import { SharedLearns } from "../../app/shared-learns";

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** a fake device: each learn is answered by the test, in order */
function device() {
  const pending: Array<ReturnType<typeof deferred<string>>> = [];
  const learn = () => {
    const d = deferred<string>();
    pending.push(d);
    return d.promise;
  };
  return { pending, learn };
}

const settle = () => new Promise((r) => setImmediate(r));

describe("shared learns", () => {
  test("a read arriving during a learn gets the next learn, which answers every read waiting with it", async () => {
    const shared = new SharedLearns();
    const dev = device();
    const first = shared.run("7 basic", dev.learn);
    await settle();
    const second = shared.run("7 basic", dev.learn);
    const third = shared.run("7 basic", dev.learn);
    await settle();
    expect(dev.pending).toHaveLength(1); // the waiting reads do not start their own learn
    dev.pending[0].resolve("learn 1");
    expect(await first).toBe("learn 1");
    await settle();
    expect(dev.pending).toHaveLength(2); // the next learn started when the first ended
    const fourth = shared.run("7 basic", dev.learn); // arrives during learn 2: not answered by it
    dev.pending[1].resolve("learn 2");
    expect([await second, await third]).toEqual(["learn 2", "learn 2"]);
    await settle();
    dev.pending[2].resolve("learn 3");
    expect(await fourth).toBe("learn 3");
    expect(shared.counters).toEqual({ learns: 3, joined: 1 });
  });

  test("other devices and scopes do not wait for each other; a failed learn fails the reads it answers", async () => {
    const shared = new SharedLearns();
    const dev = device();
    const basic = shared.run("7 basic", dev.learn);
    const details = shared.run("7 details", dev.learn);
    const other = shared.run("8 basic", dev.learn);
    await settle();
    expect(dev.pending).toHaveLength(3);
    const waiting = shared.run("7 basic", dev.learn);
    dev.pending[0].reject(new Error("no answer"));
    await expect(basic).rejects.toThrow("no answer");
    await settle();
    dev.pending[3].reject(new Error("still no answer"));
    await expect(waiting).rejects.toThrow("still no answer");
    dev.pending[1].resolve("d");
    dev.pending[2].resolve("o");
    expect([await details, await other]).toEqual(["d", "o"]);
    // nothing is kept: the next read learns anew
    const later = shared.run("7 basic", dev.learn);
    await settle();
    dev.pending[4].resolve("fresh");
    expect(await later).toBe("fresh");
  });
});
