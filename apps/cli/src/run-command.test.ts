import { RunSummarySchema, type RunSummary } from "@taillab/api";
import { startTestbedServer } from "@taillab/backend";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, startCli } from "./test-support/run-cli.ts";

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "taillab-cli-"));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** The smallest valid workload, for tests about everything but the load. */
const ONE_REQUEST = ["--clients", "1", "--samples", "1", "--size", "1KiB"];

function parseSummary(stdout: string): RunSummary {
  return RunSummarySchema.parse(JSON.parse(stdout));
}

describe("taillab run on the embedded testbed", () => {
  it("writes, reads and deletes every sample, and writes summary.json and requests.csv", async () => {
    const out = join(scratch, "basic");
    const result = await runCli([
      "run",
      "--clients",
      "4",
      "--samples",
      "64",
      "--size",
      "4KiB",
      "--verify",
      "--json",
      "--out",
      out,
    ]);
    expect(result.stderr).toContain("embedded testbed listening on http://127.0.0.1:");
    expect(result.code).toBe(0);
    const summary = parseSummary(result.stdout);
    expect(summary.points).toHaveLength(1);
    const [point] = summary.points;
    expect(point?.params).toEqual({ clients: 4, samples: 64, objectSizeBytes: 4096 });
    expect(point?.phases.map((phase) => [phase.op, phase.requests, phase.errors])).toEqual([
      ["PUT", 64, 0],
      ["GET", 64, 0],
      ["DELETE", 64, 0],
    ]);
    const [put, get] = point?.phases ?? [];
    expect(put?.bytes).toBe(64 * 4096);
    expect(get?.bytes).toBe(64 * 4096);
    expect(get?.latencyMs?.p50).toBeGreaterThan(0);
    expect(get?.latencyMs?.p50).toBeLessThanOrEqual(get?.latencyMs?.p99 ?? 0);
    expect(get?.ttfbMs?.p50).toBeLessThanOrEqual(get?.latencyMs?.p50 ?? 0);
    expect(get?.throughputMBps).toBeCloseTo(
      (64 * 4096) / 1024 / 1024 / ((get?.durationMs ?? 1) / 1000),
      1,
    );

    const onDisk = RunSummarySchema.parse(
      JSON.parse(await readFile(join(out, "summary.json"), "utf8")),
    );
    expect(onDisk).toEqual(summary);
    const csv = (await readFile(join(out, "requests.csv"), "utf8")).trimEnd().split("\r\n");
    expect(csv[0]).toBe(
      "point,op,key,bytes,intendedStartUs,readyUs,sentUs,headersUs,firstByteUs,endUs,connectUs,bodySentUs,status,error,attempt,replica,winner,phaseIndex,client,measured",
    );
    expect(csv).toHaveLength(1 + 3 * 64);
    const keys = new Set(csv.slice(1).map((row) => row.split(",")[2]));
    expect(keys.size).toBe(64);
    for (const key of keys) expect(key).toMatch(new RegExp(`^taillab/${summary.runId}/\\d+$`));
  });

  it("runs s3bench's flags on the embedded testbed without -endpoint: s3bench's text, its URL as endpoint", async () => {
    const result = await runCli([
      "run",
      "-numClients",
      "2",
      "-numSamples",
      "16",
      "-objectSize",
      "1024",
      "-objectNamePrefix",
      "lab1",
      "-bucket",
      "bench",
    ]);
    expect(result.code).toBe(0);
    for (const text of [
      "Test parameters\nendpoint(s):      [http://127.0.0.1:",
      "bucket:           bench\nobjectNamePrefix: lab1\n",
      "Results Summary for Write Operation(s)",
      "Results Summary for Read Operation(s)",
      "Total Transferred: 0.016 MB",
      "Number of Errors:  0",
      "Read times 99th %ile: ",
      "Cleaning up 16 objects...\n",
    ]) {
      expect(result.stdout).toContain(text);
    }
    // TailLab's own lines are not s3bench's: after it with --details, else on stderr.
    expect(result.stdout).not.toContain("99.9th");
    expect(result.stdout).not.toContain("Run id: ");
    expect(result.stderr).toContain("Run id: ");
  });

  it("runs a sweep as cartesian points in a stable order and ends with a table", async () => {
    const result = await runCli([
      "run",
      "--clients",
      "1,2",
      "--size",
      "1KiB,2KiB",
      "--samples",
      "8",
      "--json",
    ]);
    expect(result.code).toBe(0);
    const summary = parseSummary(result.stdout);
    expect(summary.points.map((point) => point.params)).toEqual([
      { clients: 1, samples: 8, objectSizeBytes: 1024 },
      { clients: 1, samples: 8, objectSizeBytes: 2048 },
      { clients: 2, samples: 8, objectSizeBytes: 1024 },
      { clients: 2, samples: 8, objectSizeBytes: 2048 },
    ]);
    const text = await runCli(["run", "--clients", "1,2", "--size", "1KiB", "--samples", "4"]);
    expect(text.stdout).toContain("=== clients 1, samples 4, object size 1KiB ===");
    expect(text.stdout).toMatch(/clients\s+samples\s+size\s+op\s+ops\/s/);
  });

  it("prints each point as it ends; SIGTERM in point 2 of a sweep stops it: exit 130, 1 of 2 points finished", async () => {
    // Point 2 would take minutes: the stop comes once point 1's summary is on stdout.
    const run = startCli(["run", "--clients", "1", "--size", "1KiB", "--samples", "20,1000000"]);
    const firstPoint = "=== clients 1, samples 20, object size 1KiB ===";
    let stdout = "";
    await new Promise<void>((resolve) => {
      run.child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes(firstPoint)) resolve();
      });
    });
    run.child.kill("SIGTERM");
    const result = await run.result;
    expect(result.code).toBe(130);
    expect(result.stdout.indexOf(firstPoint)).toBe(0);
    expect(result.stdout).toContain(
      "Stopped: 1 of 2 points finished; the figures cover what was measured.",
    );
    expect(result.stderr).toContain("stopping: in-flight requests cut off, cleaning up");
  });

  it("reads a spec file and lets flags override it", async () => {
    const specPath = join(scratch, "spec.json");
    await writeFile(
      specPath,
      JSON.stringify({ clients: 2, samples: 8, objectSize: "2KiB", phases: ["write", "cleanup"] }),
    );
    const result = await runCli(["run", "--spec", specPath, "--samples", "6", "--json"]);
    expect(result.code).toBe(0);
    const summary = parseSummary(result.stdout);
    expect(summary.points[0]?.params).toEqual({ clients: 2, samples: 6, objectSizeBytes: 2048 });
    expect(summary.points[0]?.phases.map((phase) => phase.op)).toEqual(["PUT", "DELETE"]);
  });
});

describe("taillab run rejects bad input with exit code 2, naming the field", () => {
  it.each([
    [["--size", "0"], "objectSize", "must be greater than 0 bytes"],
    [["--size", "-5"], "objectSize", "must be greater than 0 bytes"],
    [["--size", "abc"], "objectSize", "is not a size"],
    [["--size", "1.5.3KiB"], "objectSize", "is not a size"],
    [["--clients", "0"], "clients", "at least 1 client"],
    [["--clients", "8", "--samples", "4"], "samples", "must be at least clients (8)"],
    [["--endpoint", "127.0.0.1:9000"], "endpoints[0].url", "http:// or https://"],
    [["--frobnicate"], "--frobnicate", "unknown flag"],
    [["--transport", "carrier-pigeon"], "transport", "fast"],
    [["--mode", "speculative"], "mode", "hedged"],
    [["--mode", "hedged", "--hedge-delay", "soon"], "hedge.delay", "expected a duration like 30ms"],
    [["--hedge-budget", "5"], "hedge.budgetPercent", "the % sign is required"],
    [["--region", "eu-west-1"], "region", "without --endpoint the embedded testbed is started"],
    [["--rate", "fast"], "openLoop.rateHz", "expected a rate like 500/s"],
    [["--testbed-profile", "slow"], "testbed.profile", "expected one of fast, steady, stalls"],
    [["--details"], "details", "use it with s3bench's flags"],
    [["-numClients", "1", "--ops", "get:100"], "ops", "not a mixed workload"],
    [["-verbose=yes"], "-verbose=yes", "takes no value"],
    [
      ["--endpoint", "http://127.0.0.1:1", "--replicas", "http://127.0.0.1:2"],
      "replicas",
      "not both",
    ],
  ])("%j", async (args, field, message) => {
    const base = ["run", "--clients", "1", "--samples", "4", "--size", "1KiB"];
    const result = await runCli([...base, ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${field}: `);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe("");
  });

  it("reports an endpoint nobody listens on", async () => {
    const result = await runCli(["run", "--endpoint", "http://127.0.0.1:9", ...ONE_REQUEST], {
      AWS_ACCESS_KEY_ID: "x",
      AWS_SECRET_ACCESS_KEY: "y",
    });
    expect(result.code).toBe(2);
    // The endpoint is named once, not as the field and again in the message.
    expect(result.stderr).toBe(
      "taillab run: endpoint http://127.0.0.1:9: cannot connect (ECONNREFUSED)\n",
    );
  });

  it("a spec naming a variable that is not a credential is refused before any request", async () => {
    const server = await startTestbedServer({ buckets: ["loadgen"] });
    try {
      const specPath = join(scratch, "exfiltrate.json");
      await writeFile(
        specPath,
        JSON.stringify({
          endpoints: [
            {
              url: server.url,
              credentials: {
                kind: "env",
                accessKeyIdVar: "TAILLAB_SECRETS_PASSPHRASE",
                secretAccessKeyVar: "HOME_SECRET_ACCESS_KEY_FILE",
              },
            },
          ],
        }),
      );
      const result = await runCli(["run", "--spec", specPath, ...ONE_REQUEST], {
        TAILLAB_SECRETS_PASSPHRASE: "passphrase-of-the-user",
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        'endpoints[0].credentials.accessKeyIdVar: "TAILLAB_SECRETS_PASSPHRASE" is one of TailLab\'s own variables',
      );
      expect(result.stderr).toContain(
        'endpoints[0].credentials.secretAccessKeyVar: "HOME_SECRET_ACCESS_KEY_FILE" is not a credential variable',
      );
      expect(result.stderr + result.stdout).not.toContain("passphrase-of-the-user");
      expect(server.stats().received).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("asks for credentials when a real endpoint has none", async () => {
    const result = await runCli(["run", "--endpoint", "http://127.0.0.1:9", ...ONE_REQUEST]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("AWS_ACCESS_KEY_ID");
  });
});

describe("taillab compare-modes", () => {
  it("runs the same workload in each mode and prints { runs } with one summary per mode", async () => {
    const result = await runCli([
      "compare-modes",
      "--testbed-profile",
      "steady",
      "--testbed-replicas",
      "2",
      "--clients",
      "4",
      "--samples",
      "100",
      "--size",
      "1KiB",
      "--json",
    ]);
    expect(result.code).toBe(0);
    const { runs } = JSON.parse(result.stdout) as { runs: unknown[] };
    const summaries = runs.map((run) => RunSummarySchema.parse(run));
    expect(summaries.map((summary) => summary.mode)).toEqual(["normal", "hedged", "tied"]);
    for (const summary of summaries) {
      expect(summary.endpointUrls).toHaveLength(2);
      expect(summary.points[0]?.params).toEqual({
        clients: 4,
        samples: 100,
        objectSizeBytes: 1024,
      });
    }
    expect(summaries[0]?.points[0]?.phases[1]?.hedge).toBeUndefined();
    expect(summaries[2]?.points[0]?.phases[1]?.hedge?.extraPct).toBeGreaterThan(50);
  });

  it("prints one table of the tails", async () => {
    const result = await runCli([
      "compare-modes",
      "--modes",
      "normal,adaptive",
      "--clients",
      "2",
      "--samples",
      "20",
      "--size",
      "1KiB",
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /mode\s+op\s+requests\s+p50 ms\s+p99 ms\s+p99\.9 ms\s+max ms\s+extra %\s+wasted MB/,
    );
    expect(result.stdout).toMatch(/adaptive\s+GET\s+20/);
  });

  it("compares tied requests cancelled by the client and by the replicas, with their work", async () => {
    const result = await runCli([
      "compare-modes",
      "--modes",
      "tied,tied-server",
      "--testbed-profile",
      "queue",
      "--testbed-replicas",
      "2",
      "--clients",
      "4",
      "--samples",
      "200",
      "--size",
      "1KiB",
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/tied-server\s+GET\s+200/);
    expect(result.stdout).toMatch(
      /tied-server: \d+ requests served \([+-][\d.]+ %\), \d+ tied twins dropped before service/,
    );
  });

  it("names a mode it does not know", async () => {
    const result = await runCli(["compare-modes", "--modes", "normal,eager", ...ONE_REQUEST]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('modes: "eager" is not a mode');
  });
});

describe("presets", () => {
  it("lists them", async () => {
    const result = await runCli(["presets"]);
    expect(result.code).toBe(0);
    for (const name of [
      "document-backup",
      "file-sharing",
      "video-surveillance",
      "size-sweep",
      "concurrency-sweep",
    ]) {
      expect(result.stdout).toContain(name);
    }
  });

  it("runs the labs' size sweep at a fixed 4 MiB total", async () => {
    const result = await runCli([
      "run",
      "--preset",
      "size-sweep",
      "--phases",
      "write,cleanup",
      "--json",
    ]);
    expect(result.code).toBe(0);
    const summary = parseSummary(result.stdout);
    expect(summary.points).toHaveLength(9);
    for (const point of summary.points) {
      expect(point.params.samples * point.params.objectSizeBytes).toBe(4 * 1024 * 1024);
      expect(point.phases[0]?.bytes).toBe(4 * 1024 * 1024);
    }
  });

  it("runs a typical-application preset scaled down, flags overriding it", async () => {
    const result = await runCli([
      "run",
      "--preset",
      "photo-album",
      "--scale",
      "0.01",
      "--samples",
      "200",
      "--prepare",
      "30",
      "--json",
    ]);
    expect(result.code).toBe(0);
    const summary = parseSummary(result.stdout);
    expect(summary.spec.workload?.prepareObjects).toBe(30);
    const phases = summary.points[0]?.phases ?? [];
    expect(phases.reduce((sum, phase) => sum + phase.requests, 0)).toBe(200);
    expect(phases.every((phase) => phase.errors === 0)).toBe(true);
  });

  it("names a preset it does not know, and a bad scale", async () => {
    const unknown = await runCli(["run", "--preset", "tax-returns"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('preset: unknown preset "tax-returns"');
    const scale = await runCli(["run", "--preset", "photo-album", "--scale", "3"]);
    expect(scale.code).toBe(2);
    expect(scale.stderr).toContain("scale: expected a number above 0 and at most 1");
  });
});
