import type { RunSummary } from "@taillab/api";
import { startTestbedServer, type Testbed } from "@taillab/backend";
import {
  startHostileAnswerServer,
  type HostileAnswer,
  type HostileAnswerServer,
  type HostileOperation,
} from "@taillab/test-support";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./test-support/run-cli.ts";

/**
 * A server that answers 2 GiB, or without end, to LISTs, PUTs, DELETEs and the cleanup's
 * DeleteObjects: each such answer fails as ResponseTooLarge, the run ends and says so, and the
 * process's peak memory stays within a few answer limits of a normal run's.
 */

/** The engine's ANSWER_LIMIT_BYTES, as a user of the command sees it. */
const ANSWER_LIMIT_MB = 8;

let scratch: string;
let upstream: Testbed;
let rssProbe: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "taillab-cli-hostile-answers-"));
  upstream = await startTestbedServer({ buckets: ["loadgen"] });
  // Every thread of the command prints the process's peak resident set (KiB) as it exits.
  rssProbe = join(scratch, "peak-rss.cjs");
  await writeFile(
    rssProbe,
    `process.on("exit", () => require("node:fs").writeSync(2, "\\npeak-rss-kib " + process.resourceUsage().maxRSS + "\\n"));\n`,
  );
});
afterAll(async () => {
  await upstream?.close();
  await rm(scratch, { recursive: true, force: true });
});

const KEYS = { AWS_ACCESS_KEY_ID: "any", AWS_SECRET_ACCESS_KEY: "any" };

/** The highest peak the command's threads printed (rssProbe), MB. */
function peakRssMbOf(stderr: string): number {
  const peaks = [...stderr.matchAll(/peak-rss-kib (\d+)/g)].map((match) => Number(match[1]));
  return Math.max(...peaks) / 1024;
}

interface HostileRun {
  code: number | null;
  stdout: string;
  stderr: string;
  peakRssMb: number;
  summary: RunSummary | null;
}

async function runThrough(endpoint: string, transport: string, name: string): Promise<HostileRun> {
  const run = await runCli(
    [
      "run",
      "--endpoint",
      endpoint,
      "--transport",
      transport,
      ...["--ops", "list:1,put:1,delete:1", "--prepare", "10", "--samples", "30"],
      ...["--clients", "2", "--size", "1KiB", "--name", name, "--json"],
    ],
    { ...KEYS, NODE_OPTIONS: `--require=${rssProbe}` },
  );
  const json = run.stdout.slice(run.stdout.indexOf("{"));
  return {
    ...run,
    peakRssMb: peakRssMbOf(run.stderr),
    summary: run.stdout.includes("{") ? (JSON.parse(json) as RunSummary) : null,
  };
}

function codesOf(summary: RunSummary): Map<string, number> {
  const codes = new Map<string, number>();
  for (const phase of summary.points.flatMap((point) => point.phases)) {
    for (const [code, count] of Object.entries(phase.errorsByCode)) {
      codes.set(`${phase.op} ${code}`, (codes.get(`${phase.op} ${code}`) ?? 0) + count);
    }
  }
  return codes;
}

describe.each(["fast", "sdk"])(
  "--transport %s against a server with hostile answers",
  (transport) => {
    let normal: HostileRun;
    beforeAll(async () => {
      normal = await runThrough(upstream.url, transport, "normal");
    });

    it.each<HostileAnswer>(["huge", "endless"])(
      "every %s answer fails as ResponseTooLarge and memory stays bounded",
      async (answer) => {
        // The preflight's one-key listing passes, so the run starts and meets the rest.
        const hostile: HostileAnswerServer = await startHostileAnswerServer({
          upstream: upstream.url,
          answer: ({ query }) => (query.get("max-keys") === "1" ? null : answer),
        });
        try {
          const run = await runThrough(hostile.url, transport, `hostile ${answer}`);
          expect(normal.code, normal.stderr).toBe(0);
          expect(run.stderr).not.toMatch(/\n\s+at /);
          // 4: the cleanup could not delete what the run wrote (its DeleteObjects got the same).
          expect(run.code, run.stderr).toBe(4);
          const codes = codesOf(run.summary as RunSummary);
          for (const op of ["LIST", "PUT", "DELETE"]) {
            expect(
              codes.get(`${op} ResponseTooLarge`),
              `${op}: ${[...codes.keys()]}`,
            ).toBeGreaterThan(0);
          }
          const seen = hostile.answered();
          for (const op of ["LIST", "PUT", "DELETE", "DELETE_OBJECTS"] as HostileOperation[]) {
            expect(seen[op], op).toBeGreaterThan(0);
          }
          // Far less than one hostile answer (2 GiB) each: the client stopped at the limit.
          expect(hostile.bytesSent()).toBeLessThan(2 * 1024 ** 3);
          // Two clients and the cleanup each hold at most one answer limit (twice, as chunks and
          // then joined), with room for the collector's lag.
          expect(run.peakRssMb).toBeLessThan(normal.peakRssMb + 16 * ANSWER_LIMIT_MB);

          // taillab cleanup lists what the run left: that listing is cut off the same way.
          const listingsBefore = hostile.answered().LIST;
          const cleanup = await runCli(["cleanup", (run.summary as RunSummary).runId], {
            ...KEYS,
            NODE_OPTIONS: `--require=${rssProbe}`,
          });
          expect(cleanup.stderr).not.toMatch(/\n\s+at /);
          expect(cleanup.code, cleanup.stderr).toBe(4);
          expect(cleanup.stderr).toContain("ResponseTooLarge");
          expect(hostile.answered().LIST).toBeGreaterThan(listingsBefore);
          expect(peakRssMbOf(cleanup.stderr)).toBeLessThan(normal.peakRssMb + 16 * ANSWER_LIMIT_MB);
        } finally {
          await hostile.close();
        }
      },
    );
  },
);
