import { HedgeOptionsSchema } from "@taillab/api";
import { afterEach, describe, expect, it } from "vitest";
import type { SendAttempt } from "./hedged-tied-executor.ts";
import { createRequestSetup, type RequestSetup } from "./request-setup.ts";
import { createFastTransport } from "./transport/fast-transport.ts";
import type { RequestOutcome, TransportTarget } from "./transport/index.ts";

const hedge = HedgeOptionsSchema.parse({});

function target(port: number): TransportTarget {
  return {
    url: `http://127.0.0.1:${port}`,
    region: "us-east-1",
    addressing: "path",
    credentials: { accessKeyId: "a", secretAccessKey: "b" },
    bucket: "loadgen",
    maxConnections: 2,
  };
}

const answer: RequestOutcome = {
  readyUs: 0,
  sentUs: 0,
  headersUs: 1,
  firstByteUs: 1,
  endUs: 2,
  status: 200,
  error: null,
  bytes: 0,
};

/**
 * A replica that never answers: each attempt ends "Aborted" when its signal aborts. `sent`
 * resolves once `expected` attempts went out.
 */
function silentReplicas(expected: number) {
  let attempts = 0;
  let allSent: () => void = () => {};
  const sent = new Promise<void>((resolve) => (allSent = resolve));
  const send: SendAttempt = (_replica, { signal }) => {
    attempts += 1;
    if (attempts === expected) allSent();
    return new Promise((resolve) =>
      signal?.addEventListener("abort", () => resolve({ ...answer, status: 0, error: "Aborted" })),
    );
  };
  return { send, sent };
}

describe("createRequestSetup", () => {
  let setup: RequestSetup | null = null;
  afterEach(async () => {
    await Promise.all(setup?.transports.map((transport) => transport.close()) ?? []);
    setup = null;
  });

  function start() {
    setup = createRequestSetup({
      targets: [target(1), target(2)],
      createTransport: createFastTransport,
      mode: "normal",
      hedge,
      replicaChoice: "round-robin",
      clock: () => 0,
    });
    return setup;
  }

  it("keeps a phase's executors until a retune or the next phase", () => {
    const setup = start();
    const phase = new AbortController().signal;
    const first = setup.executorsOn(phase);
    expect(setup.executorsOn(phase)).toBe(first);
    setup.retune({ mode: "tied", hedge, targets: [target(1), target(2)] });
    const retuned = setup.executorsOn(phase);
    expect(retuned).not.toBe(first);
    expect(setup.mode).toBe("tied");
    expect(setup.executorsOn(new AbortController().signal)).not.toBe(retuned);
  });

  it("cuts off a retuned mode's attempts when the phase ends (a stop, or a lost server)", async () => {
    const setup = start();
    setup.retune({ mode: "tied", hedge, targets: [target(1), target(2)] });
    const phase = new AbortController();
    const { send, sent } = silentReplicas(2);
    const result = setup.executorsOn(phase.signal).withBackups.execute(send, "GET:small");
    await sent;
    phase.abort();
    const { attempts, winner } = await result;
    expect(winner).toBeNull();
    // Both tied copies aborted by the phase's end, not cancelled by a twin's answer.
    expect(attempts.map(({ outcome, cancelled }) => [outcome.error, cancelled])).toEqual([
      ["Aborted", false],
      ["Aborted", false],
    ]);
  });

  it("opens a transport for a replica that joins and keeps the others", () => {
    const setup = start();
    const [first, second] = setup.transports;
    setup.retune({ mode: "hedged", hedge, targets: [target(1), target(2), target(3)] });
    expect(setup.transports).toHaveLength(3);
    expect(setup.transports[0]).toBe(first);
    expect(setup.transports[1]).toBe(second);
  });
});
