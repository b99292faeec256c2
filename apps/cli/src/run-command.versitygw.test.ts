import { RunSummarySchema } from "@taillab/api";
import type { ControlPlane } from "@taillab/engine";
import { startVersitygw, type VersitygwServer } from "@taillab/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./test-support/run-cli.ts";
import { createServerBucket } from "./test-support/server-bucket.ts";

/** versitygw is strict where MinIO is lenient: what passes here does not lean on MinIO. */

let gateway: VersitygwServer;
let bucket: ControlPlane;
let env: Record<string, string>;

beforeAll(async () => {
  gateway = await startVersitygw();
  ({ env, bucket } = await createServerBucket(gateway));
});

afterAll(async () => {
  await bucket?.close();
  await gateway?.stop();
});

describe("taillab run against versitygw", () => {
  it.each(["fast", "sdk"])("runs s3bench's phases through the %s path", async (transport) => {
    const result = await runCli(
      [
        "run",
        "--endpoint",
        gateway.url,
        "--clients",
        "4",
        "--samples",
        "60",
        "--size",
        "8KiB",
        "--verify",
        "--transport",
        transport,
        "--json",
      ],
      env,
    );
    expect(result.stderr).not.toContain("Error");
    expect(result.code).toBe(0);
    const summary = RunSummarySchema.parse(JSON.parse(result.stdout));
    expect(
      summary.points[0]?.phases.map((phase) => [phase.op, phase.requests, phase.errors]),
    ).toEqual([
      ["PUT", 60, 0],
      ["GET", 60, 0],
      ["DELETE", 60, 0],
    ]);
  });

  it("an access key versitygw does not know is a credentials problem (XAdminUserNotFound), exit 2", async () => {
    const result = await runCli(
      ["run", "--endpoint", gateway.url, "--clients", "1", "--samples", "1", "--size", "1KiB"],
      { ...env, AWS_ACCESS_KEY_ID: "nobody-here" },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `taillab run: credentials: endpoint ${gateway.url}: the access key was rejected (XAdminUserNotFound)\n`,
    );
  });

  it("runs the mixed workload and leaves the bucket empty", async () => {
    const result = await runCli(
      [
        "run",
        "--endpoint",
        gateway.url,
        "--ops",
        "get:60,put:15,head:10,copy:5,delete:5,list:5",
        "--prepare",
        "50",
        "--range",
        "random:4KiB",
        "--clients",
        "4",
        "--samples",
        "500",
        "--size",
        "16KiB",
        "--verify",
        "--json",
      ],
      env,
    );
    expect(result.code).toBe(0);
    const summary = RunSummarySchema.parse(JSON.parse(result.stdout));
    const phases = summary.points[0]?.phases ?? [];
    expect(phases.map((phase) => [phase.op, phase.errors])).toEqual([
      ["GET", 0],
      ["PUT", 0],
      ["HEAD", 0],
      ["COPY", 0],
      ["DELETE", 0],
      ["LIST", 0],
    ]);
    expect(await bucket.listKeys("")).toEqual([]);
  });
});
