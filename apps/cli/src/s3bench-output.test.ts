import { startTestbedServer, type Testbed } from "@taillab/backend";
import { createControlPlane } from "@taillab/engine";
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./test-support/run-cli.ts";

/**
 * TailLab run with s3bench's flags against what s3bench itself printed for the same flags.
 * The files in test-support are the real s3bench's output (igneous-systems/s3bench at 7b81001,
 * built with Go 1.26 and aws-sdk-go 1.55.8), run against an embedded testbed of two replicas:
 *   s3bench -accessKey=KEY -accessSecret=SECRET -bucket=loadgen -endpoint=URL1,URL2
 *     -numClients=2 -numSamples=10 -objectNamePrefix=loadgen -objectSize=1024 -verbose
 * and the same with -skipCleanup -region=us-east-1 instead of -verbose. Only figures differ
 * from run to run: they are masked, every other byte must be the same.
 */
const fixture = (name: string) =>
  readFile(new URL(`./test-support/s3bench-output-${name}.txt`, import.meta.url), "utf8");

function figuresMasked(text: string): string {
  return text
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, "URL")
    .replace(/\((\d+(\.\d+)?(ns|µs|ms|s|m|h))+\)$/gm, "(DURATION)")
    .replace(/in (\d+(\.\d+)?(ns|µs|ms|s|m|h))+$/gm, "in DURATION")
    .replace(/\d+\.\d+/g, "N");
}

const S3BENCH_FLAGS = [
  "-accessKey=KEY",
  "-accessSecret=SECRET",
  "-bucket=loadgen",
  "-numClients=2",
  "-numSamples=10",
  "-objectNamePrefix=loadgen",
  "-objectSize=1024",
];

let testbed: Testbed;
beforeAll(async () => {
  testbed = await startTestbedServer({
    buckets: ["loadgen"],
    replicas: 2,
    credentials: { accessKeyId: "KEY", secretAccessKey: "SECRET" },
  });
});
afterAll(async () => {
  await testbed.close();
});

const keysLeft = () =>
  createControlPlane({
    url: testbed.url,
    region: "us-east-1",
    addressing: "path",
    credentials: { accessKeyId: "KEY", secretAccessKey: "SECRET" },
    bucket: "loadgen",
    maxConnections: 1,
  }).listKeys("loadgen/");

describe("taillab run with s3bench's flags prints what s3bench prints", () => {
  it("-endpoint a,b -verbose: both endpoints serve, every line as s3bench's, objects deleted", async () => {
    const before = testbed.replicas.map((replica) => replica.stats().received);
    const endpoints = `-endpoint=${testbed.urls.join(",")}`;
    const result = await runCli(["run", ...S3BENCH_FLAGS, endpoints, "-verbose"]);
    expect(result.code).toBe(0);
    expect(figuresMasked(result.stdout)).toBe(figuresMasked(await fixture("verbose")));
    expect(result.stdout).toContain(`endpoint(s):      [${testbed.urls.join(" ")}]\n`);
    // s3bench spreads its clients over the endpoints; TailLab its requests.
    testbed.replicas.forEach((replica, index) => {
      expect(replica.stats().received).toBeGreaterThan((before[index] ?? 0) + 5);
    });
    expect(await keysLeft()).toEqual([]);
    // TailLab's own lines are not in s3bench's text: the run id goes to stderr.
    expect(result.stderr).toMatch(/^Run id: \S+ \(taillab runs show \S+\)$/m);
  });

  it("-skipCleanup keeps the objects; --details adds TailLab's figures after s3bench's text", async () => {
    const result = await runCli([
      "run",
      ...S3BENCH_FLAGS,
      `-endpoint=${testbed.urls.join(",")}`,
      "-skipCleanup",
      "-region=us-east-1",
      "--details",
    ]);
    expect(result.code).toBe(0);
    const separator = "\n--- TailLab's figures (not s3bench's output) ---\n";
    const [s3bench = "", details = ""] = result.stdout.split(separator);
    expect(figuresMasked(s3bench)).toBe(figuresMasked(await fixture("skip-cleanup")));
    expect(details).toMatch(/^Write times, ms: .* p99\.9 \d+\.\d{3} /m);
    expect(details).not.toContain("Results Summary");
    expect(details).toMatch(/^Run id: \S+/m);
    expect((await keysLeft()).filter((key) => /^loadgen\/[^/]+\/\d+$/.test(key))).toHaveLength(10);
  });

  it("every percentile line matches a regex taken from s3bench's Printf format", async () => {
    const result = await runCli(["run", ...S3BENCH_FLAGS, `-endpoint=${testbed.url}`]);
    expect(result.code).toBe(0);
    // "%s times 99th %%ile: %0.3f s\n" and its siblings, s3bench.go lines 279–285.
    const percentileLine = /^(Write|Read) times (Max: {7}|\d\dth %ile: |Min: {7})\d+\.\d{3} s$/;
    const lines = result.stdout.split("\n").filter((line) => line.includes(" times "));
    expect(lines).toHaveLength(14);
    for (const line of lines) expect(line).toMatch(percentileLine);
  });
});
