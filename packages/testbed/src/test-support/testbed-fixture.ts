/** Real parts for the integration tests: a testbed on a free port and an SDK client for it. */
import { S3Client, type S3ClientConfig } from "@aws-sdk/client-s3";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestbed, type Testbed, type TestbedOptions } from "../index.ts";

export const CREDENTIALS = { accessKeyId: "TAILLABTEST", secretAccessKey: "test-secret-key" };

export function clientFor(testbed: Testbed, overrides: Partial<S3ClientConfig> = {}): S3Client {
  return new S3Client({
    endpoint: testbed.url,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: CREDENTIALS,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts: 1,
    ...overrides,
  });
}

export interface Fixture {
  testbed: Testbed;
  client: S3Client;
  /** The directory store's folder, when there is one. */
  directory: string | undefined;
  stop(): Promise<void>;
}

export async function startFixture(
  storeKind: "memory" | "directory",
  options: Omit<TestbedOptions, "store"> = {},
): Promise<Fixture> {
  const directory =
    storeKind === "directory" ? await mkdtemp(join(tmpdir(), "taillab-testbed-")) : undefined;
  const testbed = await startTestbed({
    ...options,
    store: directory === undefined ? { kind: "memory" } : { kind: "directory", path: directory },
  });
  const client = clientFor(testbed);
  return {
    testbed,
    client,
    directory,
    async stop() {
      client.destroy();
      await testbed.close();
      if (directory !== undefined) await rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * Polls until `condition` holds: server-side counters settle just after the client sees a reply.
 * Only the test's timeout bounds it: how soon is not the test's to say on a busy machine.
 */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** The error an SDK call rejects with, to assert on its name and HTTP status. */
export async function sdkError(
  promise: Promise<unknown>,
): Promise<{ name: string; status: number | undefined; message: string }> {
  try {
    await promise;
  } catch (error) {
    const failure = error as Error & { $metadata?: { httpStatusCode?: number } };
    return {
      name: failure.name,
      status: failure.$metadata?.httpStatusCode,
      message: failure.message,
    };
  }
  throw new Error("expected the S3 call to fail, but it succeeded");
}
