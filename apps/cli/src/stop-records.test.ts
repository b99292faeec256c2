import { ABORTED_ERROR, RunSummarySchema, type RequestRecord } from "@taillab/api";
import { openResultsStore } from "@taillab/backend";
import { startDrippingProxy } from "@taillab/test-support";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { expect, it } from "vitest";
import { startCli } from "./test-support/run-cli.ts";
import { createServerBucket } from "./test-support/server-bucket.ts";
import { startTestbedProcess } from "./test-support/testbed-process.ts";

/** The keys of the PUTs a proxy passed on, from their request lines. */
function putKeys(requestLines: readonly string[]): string[] {
  return requestLines
    .map((line) => /^PUT \/loadgen\/(\S+) HTTP\/1\.1$/.exec(line)?.[1])
    .filter((key) => key !== undefined)
    .map(decodeURIComponent);
}

it("Ctrl-C mid-phase: every PUT the server received has a record, those cut off in flight are counted apart, the cleanup removes their objects, and the last line is the outcome", async () => {
  const server = await startTestbedProcess();
  const { bucket } = await createServerBucket({
    url: server.url,
    accessKeyId: server.env.AWS_ACCESS_KEY_ID,
    secretAccessKey: server.env.AWS_SECRET_ACCESS_KEY,
  });
  // In front of the server, counting what reached it.
  const proxy = await startDrippingProxy({ host: "127.0.0.1", port: server.port });
  const library = await mkdtemp(join(tmpdir(), "taillab-stop-records-"));
  try {
    const run = startCli(
      [
        ...["run", "--endpoint", proxy.url, "--clients", "16", "--size", "1KiB"],
        ...["--samples", "1000000", "--json", "--results", library],
      ],
      server.env,
    );
    // Sixteen clients keep sixteen PUTs in flight: the stop cuts some off after they were sent.
    while (putKeys(proxy.requestLines()).length < 500) {
      await sleep(50);
    }
    run.child.kill("SIGINT");
    const result = await run.result;
    expect(result.code).toBe(130);
    const summary = RunSummarySchema.parse(JSON.parse(result.stdout));

    const store = await openResultsStore(library);
    const records = new Map<string, RequestRecord>();
    for await (const { record } of store.records(summary.runId)) records.set(record.key, record);
    const received = putKeys(proxy.requestLines());
    expect(received.filter((key) => !records.has(key))).toEqual([]);

    const cutOff = [...records.values()].filter((record) => record.error === ABORTED_ERROR);
    expect(cutOff.length).toBeGreaterThan(0);
    const [put] = summary.points[0]?.phases ?? [];
    expect(put?.op).toBe("PUT");
    expect(put?.cutOff).toBe(cutOff.length);
    expect(put?.errors).toBe(0);
    expect((put?.requests ?? 0) + cutOff.length).toBe(records.size);

    // Their objects are the run's leftovers too: the cleanup removed every one that was written.
    expect(await bucket.listKeys(`taillab/${summary.runId}/`)).toEqual([]);
    const lines = result.stderr.trimEnd().split("\n");
    const removed =
      /^taillab run: exit 130 \(stopped\): 0 of 1 points finished; the cleanup removed (\d+) objects$/.exec(
        lines.at(-1) ?? "",
      );
    expect(removed, lines.at(-1)).not.toBeNull();
    expect(Number(removed?.[1])).toBeGreaterThanOrEqual(new Set(received).size);
  } finally {
    await proxy.close();
    await bucket.close();
    await server.kill();
    await rm(library, { recursive: true, force: true });
  }
});
