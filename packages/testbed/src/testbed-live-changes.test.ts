import { TIE_DROPPED_CODE, TIE_DROPPED_STATUS, TIE_ID_HEADER } from "@taillab/api";
import { afterEach, describe, expect, it } from "vitest";
import { SERVICE_TIME_HEADER, startTestbed, type Testbed, type TestbedOptions } from "./index.ts";
import { until } from "./test-support/testbed-fixture.ts";

/**
 * What a live lab changes while the testbed serves: tied copies cancelled between replicas, the
 * latency profile and the number of replicas.
 */

const bucket = "live";
const running: Testbed[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((testbed) => testbed.close()));
});

async function start(options: TestbedOptions): Promise<Testbed> {
  const testbed = await startTestbed({ buckets: [bucket], ...options });
  running.push(testbed);
  return testbed;
}

interface Answer {
  status: number;
  body: string;
  serviceMs: number;
  /** In which order the answers came, from 1. */
  order: number;
}

/**
 * The first replica serves 1 000× slower the whole test: a request it started is still in service
 * when the next step comes, however long a loaded machine takes to send it.
 */
const FIRST_REPLICA_1000_TIMES_SLOWER = {
  replica: 0,
  everyMs: 60_000,
  forMs: 60_000,
  factor: 1000,
};

let answered = 0;
async function get(url: string, tieId?: string): Promise<Answer> {
  const response = await fetch(`${url}/${bucket}/missing`, {
    headers: tieId === undefined ? {} : { [TIE_ID_HEADER]: tieId },
  });
  const body = await response.text();
  return {
    status: response.status,
    body,
    serviceMs: Number(response.headers.get(SERVICE_TIME_HEADER)) / 1000,
    order: ++answered,
  };
}

describe("tied requests between replicas", () => {
  it("drops the copy waiting in a busy replica's queue once its twin starts on an idle one", async () => {
    // The busy replica serves 1 000× slower (200 s), so its blocker is still in service whenever
    // the twin arrives, however long a loaded machine takes to send it.
    const testbed = await start({
      replicas: 2,
      profile: {
        serviceTime: { kind: "fixed", ms: 200 },
        queue: { slots: 1 },
        noisyNeighbour: FIRST_REPLICA_1000_TIMES_SLOWER,
      },
    });
    const [busy, idle] = testbed.urls as [string, string];
    let blockerAnswered = false;
    get(busy).then(
      () => (blockerAnswered = true),
      () => undefined, // cut off when the testbed closes
    );
    await until(() => testbed.replicas[0]?.stats().served === 1);
    const waiting = get(busy, "tie-1");
    await until(() => testbed.replicas[0]?.stats().received === 2);
    const twin = get(idle, "tie-1");

    const dropped = await waiting;
    expect(dropped.status).toBe(TIE_DROPPED_STATUS);
    expect(dropped.body).toContain(`<Code>${TIE_DROPPED_CODE}</Code>`);
    // Dropped when the twin started, not when the blocker ahead of it finished.
    expect(blockerAnswered).toBe(false);
    expect((await twin).status).toBe(404);
    expect(testbed.replicas.map((replica) => replica.stats())).toMatchObject([
      { received: 2, served: 1, tiesDropped: 1 },
      { received: 1, served: 1, tiesDropped: 0 },
    ]);
  });

  it("without a queue, serves the first copy to arrive and drops the later one at once", async () => {
    // The first copy's replica serves 1 000× slower (200 s): it is still in service when the
    // second copy arrives, however loaded the machine.
    const testbed = await start({
      replicas: 2,
      profile: {
        serviceTime: { kind: "fixed", ms: 200 },
        noisyNeighbour: FIRST_REPLICA_1000_TIMES_SLOWER,
      },
    });
    let firstAnswered = false;
    get(testbed.urls[0] as string, "tie-2").then(
      () => (firstAnswered = true),
      () => undefined, // cut off when the testbed closes
    );
    await until(() => testbed.replicas[0]?.stats().served === 1);
    const second = await get(testbed.urls[1] as string, "tie-2");
    expect(second.status).toBe(TIE_DROPPED_STATUS);
    expect(firstAnswered).toBe(false);
    expect(testbed.stats()).toMatchObject({ served: 1, tiesDropped: 1 });
  });

  it("serves copies of different ties, and requests without a tie id, as usual", async () => {
    const testbed = await start({
      replicas: 2,
      profile: { serviceTime: { kind: "fixed", ms: 5 } },
    });
    const answers = await Promise.all([
      get(testbed.urls[0] as string, "x"),
      get(testbed.urls[1] as string, "y"),
      get(testbed.urls[1] as string),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404]);
    expect(testbed.stats()).toMatchObject({ served: 3, tiesDropped: 0 });
  });
});

describe("changes while serving", () => {
  it("setProfile: requests after the change get the new service time", async () => {
    // Told apart by the answer, not by how fast it came: a loaded machine makes a 1 ms
    // service stamp 200 ms late.
    const testbed = await start({
      profile: { serviceTime: { kind: "fixed", ms: 1 }, errors: { slowDownRate: 1 } },
    });
    const before = await get(testbed.url);
    testbed.setProfile({ serviceTime: { kind: "fixed", ms: 150 } });
    const after = await get(testbed.url);
    expect(before.body).toContain("<Code>SlowDown</Code>");
    expect(after.status).toBe(404);
    expect(after.serviceMs).toBeGreaterThanOrEqual(149);
    testbed.setProfile("fast");
    // The SlowDown was answered without being served.
    expect(testbed.stats()).toMatchObject({ received: 2, served: 1 });
    expect(() => testbed.setProfile("slow" as "fast")).toThrow(/unknown latency profile "slow"/);
  });

  it("setProfile keeps the queue when the slot count stays, so waiting requests keep their place", async () => {
    const testbed = await start({
      profile: { serviceTime: { kind: "fixed", ms: 200 }, queue: { slots: 1 } },
    });
    const first = get(testbed.url);
    await until(() => testbed.stats().served === 1);
    const second = get(testbed.url);
    await until(() => testbed.stats().received === 2);
    testbed.setProfile({ serviceTime: { kind: "fixed", ms: 10 }, queue: { slots: 1 } });
    // A newcomer under the new profile still waits behind the two.
    const third = get(testbed.url);
    const orders = (await Promise.all([first, second, third])).map((answer) => answer.order);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
  });

  it("setReplicas starts replicas sharing the store, and retires the last ones", async () => {
    const testbed = await start({ replicas: 1 });
    await fetch(`${testbed.url}/${bucket}/shared`, { method: "PUT", body: "one store" });
    const urls = await testbed.setReplicas(3);
    expect(urls).toHaveLength(3);
    expect(urls[0]).toBe(testbed.url);
    expect(testbed.replicas.map((replica) => replica.index)).toEqual([0, 1, 2]);
    const read = await fetch(`${urls[2]}/${bucket}/shared`);
    expect(await read.text()).toBe("one store");

    expect(await testbed.setReplicas(1)).toEqual([testbed.url]);
    expect(testbed.replicas).toHaveLength(1);
    await expect(fetch(`${urls[2]}/${bucket}/shared`)).rejects.toThrow();
    await expect(testbed.setReplicas(0)).rejects.toThrow(/replicas must be a whole number/);
  });

  it("a retired replica finishes the request it serves", async () => {
    const testbed = await start({
      replicas: 2,
      profile: { serviceTime: { kind: "fixed", ms: 200 } },
    });
    const inService = get(testbed.urls[1] as string);
    await until(() => testbed.replicas[1]?.stats().served === 1);
    await testbed.setReplicas(1);
    expect((await inService).status).toBe(404);
  });
});
