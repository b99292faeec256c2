import type { TestbedSetup, TestbedStatus } from "@taillab/api";
import { startEmbeddedTestbed, type EmbeddedTestbed } from "../embedded-testbed.ts";
import { createTaskQueue } from "./task-queue.ts";

/** The bucket the long-lived testbed creates, as the testbed endpoint's default. */
export const TESTBED_BUCKET = "loadgen";

/**
 * An embedded testbed that stays up until stopped, for pointing other tools (or another
 * endpoint) at: its URLs, bucket and the keys generated for this start are in its status.
 * Starting it again restarts it with the new setup.
 */
export interface TestbedHost {
  status(): TestbedStatus;
  start(setup: TestbedSetup): Promise<TestbedStatus>;
  stop(): Promise<TestbedStatus>;
}

export function createTestbedHost(): TestbedHost {
  let running: { testbed: EmbeddedTestbed; setup: TestbedSetup } | null = null;
  const inTurn = createTaskQueue();
  const status = (): TestbedStatus =>
    running
      ? {
          running: true,
          setup: running.setup,
          urls: running.testbed.urls,
          bucket: TESTBED_BUCKET,
          accessKeyId: running.testbed.credentials.accessKeyId,
          secretAccessKey: running.testbed.credentials.secretAccessKey,
        }
      : {
          running: false,
          setup: null,
          urls: [],
          bucket: null,
          accessKeyId: null,
          secretAccessKey: null,
        };
  const stopRunning = async () => {
    const stopping = running;
    running = null;
    await stopping?.testbed.close();
  };
  return {
    status,
    start: (setup) =>
      inTurn(async () => {
        await stopRunning();
        running = { testbed: await startEmbeddedTestbed(TESTBED_BUCKET, setup), setup };
        return status();
      }),
    stop: () =>
      inTurn(async () => {
        await stopRunning();
        return status();
      }),
  };
}
