import { RunSummarySchema, type RunSummary } from "@taillab/api";
import type { ControlPlane } from "@taillab/engine";
import { startDrippingProxy, type DrippingProxy } from "@taillab/test-support";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, test } from "vitest";
import { endedBefore, runCli, startCli, type CliResult } from "./test-support/run-cli.ts";
import { createServerBucket } from "./test-support/server-bucket.ts";
import { startTestbedProcess } from "./test-support/testbed-process.ts";

/**
 * A server that stops answering mid-run: `taillab testbed` behind a proxy that, once told,
 * holds every byte the server sends (a hung server), and hands them over when told to pass
 * again (a server that comes back). The run gives up on a request after 5 s: it must end after
 * the phase the silence ended, once one probe (5 s at most) got no answer either, its later
 * phases and points listed "not run". Durations are read off the run's own clock (when the
 * server stopped answering, when the measuring ended) and bounded by the timeout and the probe
 * deadline, never by a figure of seconds a loaded machine could miss.
 */

const TIMEOUT_MS = 5_000;
/** The probe's deadline: 5 s, or the request timeout when shorter. */
const PROBE_MS = Math.min(5_000, TIMEOUT_MS);

/**
 * One test's own server, proxy and results library. Most of a test is waiting out the timeout
 * and the probe, so the tests run side by side, each hanging only its own proxy.
 */
interface SilentServerLab {
  bucket: ControlPlane;
  proxy: DrippingProxy;
  /** The CLI's environment: the server's keys and this test's results library. */
  env: Record<string, string>;
}

const it = test.extend<{ lab: SilentServerLab }>({
  // eslint-disable-next-line no-empty-pattern -- vitest reads the fixtures a function asks for.
  lab: async ({}, use) => {
    const server = await startTestbedProcess();
    const { bucket } = await createServerBucket({
      url: server.url,
      accessKeyId: server.env.AWS_ACCESS_KEY_ID,
      secretAccessKey: server.env.AWS_SECRET_ACCESS_KEY,
    });
    const proxy = await startDrippingProxy({ host: "127.0.0.1", port: server.port });
    const resultsDir = mkdtempSync(join(tmpdir(), "taillab-silence-results-"));
    await use({ bucket, proxy, env: { ...server.env, TAILLAB_RESULTS_DIR: resultsDir } });
    await proxy.close();
    await bucket.close();
    await server.kill();
    rmSync(resultsDir, { recursive: true, force: true });
  },
});

/** `taillab run` against the lab's proxy, printing its text. */
const textRunArgs = (lab: SilentServerLab, ...extra: string[]) => [
  "run",
  "--endpoint",
  lab.proxy.url,
  "--size",
  "1KiB",
  "--request-timeout",
  `${TIMEOUT_MS / 1000}s`,
  ...extra,
];

const runArgs = (lab: SilentServerLab, ...extra: string[]) => textRunArgs(lab, "--json", ...extra);

/** The id in the line a run's text ends with: `Run id: <id> (taillab runs show <id>)`. */
const runIdOf = (text: string) => /^Run id: (\S+) /m.exec(text)?.[1] ?? "";

function summaryOf(result: CliResult): RunSummary {
  return RunSummarySchema.parse(JSON.parse(result.stdout));
}

function lastLine(result: CliResult): string {
  return result.stderr.trimEnd().split("\n").at(-1) ?? "";
}

/** Polls until `check` holds; only the test's timeout bounds it. */
async function until(check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) await sleep(100);
}

const runKeys = async (lab: SilentServerLab) => (await lab.bucket.listKeys("taillab/")).length;

/** Hangs the server once the run has written `count` objects; returns the run's outcome. */
async function hangAfter(
  lab: SilentServerLab,
  args: readonly string[],
  count: number,
): Promise<CliResult> {
  const run = startCli(args, lab.env);
  expect(await endedBefore(run, async () => (await runKeys(lab)) >= count)).toBeNull();
  lab.proxy.hang();
  return run.result;
}

/**
 * From the moment the server stopped answering (the first request it left unanswered was sent)
 * to the end of the measuring, on the run's clock: within two timeouts and the probe's deadline,
 * where a run that waited out a timeout per phase takes three timeouts and more.
 */
function expectEndedWithinOneTimeout(summary: RunSummary, said: string): void {
  const [loss] = summary.serverLosses ?? [];
  expect(loss).toBeDefined();
  const endedAfterMs = Date.parse(summary.finishedAt) - Date.parse(loss?.at ?? "");
  expect(endedAfterMs, said).toBeGreaterThanOrEqual(TIMEOUT_MS);
  expect(endedAfterMs, `ended ${summary.finishedAt}; ${said}`).toBeLessThan(
    2 * TIMEOUT_MS + PROBE_MS,
  );
}

/** The server answers again, and `taillab cleanup` removes what the run left (exit 0). */
async function cleanUpOnceBack(lab: SilentServerLab, runId: string): Promise<void> {
  lab.proxy.pass();
  expect((await runCli(["cleanup", runId], lab.env)).code).toBe(0);
}

/** The requests the run sent after `from` (request lines the proxy saw). */
const sentSince = (lab: SilentServerLab, from: number) => lab.proxy.requestLines().slice(from);

describe.concurrent("a server that stops answering mid-run", () => {
  it("ends the run after the first phase: GET and DELETE not run, the cleanup sends nothing and says what is left, exit 4; runs show and list say so", async ({
    lab,
  }) => {
    const result = await hangAfter(lab, runArgs(lab, "--clients", "8", "--samples", "1000000"), 50);
    const summary = summaryOf(result);
    const { runId } = summary;

    expect(result.code).toBe(4);
    expect(summary.status).toBe("serverLost");
    expect(summary.points[0]?.phases.map((phase) => phase.op)).toEqual(["PUT"]);
    expect(summary.serverLosses?.map((loss) => loss.phase)).toEqual(["PUT"]);
    expect(summary.serverGone).toMatchObject({
      probeError: "ClientTimeout",
      notRun: [
        { pointIndex: 0, phase: "GET" },
        { pointIndex: 0, phase: "DELETE" },
      ],
    });
    expectEndedWithinOneTimeout(summary, result.stderr);
    expect(result.stderr).toContain(
      "the server did not answer again (ClientTimeout): the run ends here; not run: the GET, DELETE phases\n",
    );
    expect(result.stderr).not.toContain("deleting the");
    expect(lastLine(result)).toMatch(
      new RegExp(
        `^taillab run: exit 4: the cleanup left \\d+ objects under taillab/${runId}/ in bucket loadgen \\(ClientTimeout \\d+\\); taillab cleanup ${runId} removes them; `,
      ),
    );

    const shown = await runCli(["runs", "show", runId], lab.env);
    expect(shown.stdout).toContain(`status: serverLost,`);
    for (const word of ["Read", "Delete"]) {
      expect(shown.stdout).toMatch(
        new RegExp(
          `Results Summary for ${word} Operation\\(s\\)\\nNot run: the server stopped answering at \\d\\d:\\d\\d:\\d\\d UTC`,
        ),
      );
    }
    expect(shown.stdout).not.toContain("Read times");
    const listed = JSON.parse((await runCli(["runs", "list", "--json"], lab.env)).stdout) as {
      id: string;
      status: string;
    }[];
    expect(listed.find((run) => run.id === runId)?.status).toBe("serverLost");

    lab.proxy.pass();
    const cleanup = await runCli(["cleanup", runId], lab.env);
    expect(cleanup.code).toBe(0);
    expect(await runKeys(lab)).toBe(0);
  });

  it("a 3-point sweep stops its remaining points the same way and lists them not run", async ({
    lab,
  }) => {
    const result = await hangAfter(
      lab,
      runArgs(lab, "--clients", "8,4,2", "--samples", "1000000", "--skip-cleanup"),
      50,
    );
    const summary = summaryOf(result);

    expect(summary.status).toBe("serverLost");
    expect(summary.points).toHaveLength(1);
    expect(summary.serverGone?.notRun).toEqual([
      { pointIndex: 0, phase: "GET" },
      { pointIndex: 1, phase: "PUT" },
      { pointIndex: 1, phase: "GET" },
      { pointIndex: 2, phase: "PUT" },
      { pointIndex: 2, phase: "GET" },
    ]);
    expectEndedWithinOneTimeout(summary, result.stderr);
    expect(result.stderr).toContain("not run: the GET phase and 2 more points\n");
    await cleanUpOnceBack(lab, summary.runId);
  });

  it("a lone client ends the same way: one request that got no answer in a whole timeout is enough", async ({
    lab,
  }) => {
    const result = await hangAfter(lab, runArgs(lab, "--clients", "1", "--samples", "1000000"), 20);
    const summary = summaryOf(result);

    expect(result.code).toBe(4);
    expect(summary.serverGone?.notRun.map((phase) => phase.phase)).toEqual(["GET", "DELETE"]);
    expectEndedWithinOneTimeout(summary, result.stderr);
    await cleanUpOnceBack(lab, summary.runId);
  });

  it("an open loop ends the same way", async ({ lab }) => {
    const result = await hangAfter(
      lab,
      runArgs(lab, "--clients", "8", "--rate", "200/s", "--duration", "600s"),
      50,
    );
    const summary = summaryOf(result);

    expect(result.code).toBe(4);
    expect(summary.loop).toBe("open");
    expect(summary.serverGone?.notRun.map((phase) => phase.phase)).toEqual(["GET", "DELETE"]);
    expectEndedWithinOneTimeout(summary, result.stderr);
    await cleanUpOnceBack(lab, summary.runId);
  });

  it("a server that comes back before the next phase answers the probe: the run goes on, removes what it wrote, and is still saved as one whose server stopped answering", async ({
    lab,
  }) => {
    const run = startCli(runArgs(lab, "--clients", "8", "--samples", "3000"), lab.env);
    let stderr = "";
    run.child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    await until(async () => (await runKeys(lab)) >= 50);
    lab.proxy.hang();
    await until(() => stderr.includes("asking the server once whether it answers again"));
    lab.proxy.pass();
    const result = await run.result;
    const summary = summaryOf(result);

    expect(result.stderr).toContain("the server answered again: the run goes on\n");
    expect(summary.status).toBe("serverLost");
    expect(summary.serverGone).toBeUndefined();
    expect(summary.points[0]?.phases.map((phase) => phase.op)).toEqual(["PUT", "GET", "DELETE"]);
    expect(summary.serverLosses?.map((loss) => loss.phase)).toEqual(["PUT"]);
    expect(await runKeys(lab)).toBe(0);
  });

  it("a silence in the last phase: the cleanup probes first and, with no answer, ends at once with what is left and the command that removes it", async ({
    lab,
  }) => {
    const run = startCli(
      runArgs(lab, "--clients", "8", "--samples", "3000", "--phases", "write,cleanup"),
      lab.env,
    );
    await until(() => lab.proxy.requestLines().some((line) => line.startsWith("DELETE ")));
    lab.proxy.hang();
    const hungAt = lab.proxy.requestLines().length;
    const result = await run.result;
    const summary = summaryOf(result);
    const { runId } = summary;

    expect(result.code).toBe(4);
    expect(summary.serverLosses?.map((loss) => loss.phase)).toEqual(["DELETE"]);
    expect(summary.serverGone).toMatchObject({ probeError: "ClientTimeout", notRun: [] });
    expectEndedWithinOneTimeout(summary, result.stderr);
    // The probe (one listing) and nothing of the cleanup's: no DeleteObjects waits out a timeout.
    const sent = sentSince(lab, hungAt);
    expect(sent.filter((line) => line.startsWith("POST "))).toEqual([]);
    expect(sent.filter((line) => /^GET \/loadgen\/?\?/.test(line))).toHaveLength(1);
    expect(result.stderr).toContain(
      "the server did not answer again (ClientTimeout): the run ends here\n",
    );
    expect(lastLine(result)).toMatch(
      new RegExp(
        `^taillab run: exit 4: the cleanup left (\\d+) objects under taillab/${runId}/ in bucket loadgen \\(ClientTimeout \\1\\); taillab cleanup ${runId} removes them; `,
      ),
    );
    await cleanUpOnceBack(lab, runId);
    expect(await runKeys(lab)).toBe(0);
  });

  it("Ctrl-C while the probe waits stops the run at once, before the probe's deadline", async ({
    lab,
  }) => {
    const run = startCli(runArgs(lab, "--clients", "8", "--samples", "1000000"), lab.env);
    let stderr = "";
    run.child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    await until(async () => (await runKeys(lab)) >= 50);
    lab.proxy.hang();
    await until(() => stderr.includes("asking the server once whether it answers again"));
    const sentBefore = lab.proxy.requestLines().length;
    run.child.kill("SIGINT");
    const result = await run.result;
    const summary = summaryOf(result);

    expect(result.code).toBe(130);
    expect(summary.status).toBe("stopped");
    // Stopped during the probe: no phase after it was sent (no GET), nor the cleanup's
    // DeleteObjects, each of which a silent server would keep a whole timeout.
    const sent = sentSince(lab, sentBefore);
    expect(sent.filter((line) => line.startsWith("GET /loadgen/taillab/"))).toEqual([]);
    expect(sent.filter((line) => line.startsWith("POST "))).toEqual([]);
    expect(result.stderr).not.toContain("did not answer again");
    expect(summary.points[0]?.phases.map((phase) => phase.op)).toEqual(["PUT"]);
    expect(lastLine(result)).toMatch(
      new RegExp(
        `^taillab run: exit 130 \\(stopped\\): the cleanup left \\d+ objects under taillab/${summary.runId}/ in bucket loadgen \\(ClientTimeout \\d+\\); taillab cleanup ${summary.runId} removes them`,
      ),
    );
    await cleanUpOnceBack(lab, summary.runId);
  });
  it("Ctrl-C while the cleanup's probe waits: the run stops at once, its cleanup asks the silent server nothing and says what is left", async ({
    lab,
  }) => {
    const run = startCli(
      runArgs(lab, "--clients", "8", "--samples", "3000", "--phases", "write,cleanup"),
      lab.env,
    );
    let stderr = "";
    run.child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    await until(() => lab.proxy.requestLines().some((line) => line.startsWith("DELETE ")));
    lab.proxy.hang();
    await until(() => stderr.includes("asking the server once whether it answers again"));
    const sentBefore = lab.proxy.requestLines().length;
    run.child.kill("SIGINT");
    const result = await run.result;
    const summary = summaryOf(result);
    const { runId } = summary;

    expect(result.code).toBe(130);
    expect(summary.status).toBe("stopped");
    expect(summary.serverLosses?.map((loss) => loss.phase)).toEqual(["DELETE"]);
    // Ended before the probe's deadline (it never said whether the server answered), and
    // without a DeleteObjects that would have waited out a whole timeout.
    expect(result.stderr).not.toContain("did not answer again");
    expect(result.stderr).not.toContain("deleting the");
    expect(sentSince(lab, sentBefore).filter((line) => line.startsWith("POST "))).toEqual([]);
    expect(lastLine(result)).toMatch(
      new RegExp(
        `^taillab run: exit 130 \\(stopped\\): the cleanup left (\\d+) objects under taillab/${runId}/ in bucket loadgen \\(ClientTimeout \\1\\); taillab cleanup ${runId} removes them$`,
      ),
    );
    await cleanUpOnceBack(lab, runId);
    expect(await runKeys(lab)).toBe(0);
  });

  it("the run's text lists the phases not run in s3bench's blocks, never as measured phases", async ({
    lab,
  }) => {
    const result = await hangAfter(
      lab,
      textRunArgs(lab, "--clients", "8", "--samples", "1000000"),
      50,
    );
    const runId = runIdOf(result.stdout);

    expect(result.code).toBe(4);
    for (const word of ["Read", "Delete"]) {
      expect(result.stdout).toMatch(
        new RegExp(
          `Results Summary for ${word} Operation\\(s\\)\\nNot run: the server stopped answering at \\d\\d:\\d\\d:\\d\\d UTC`,
        ),
      );
    }
    expect(result.stdout).not.toContain("Read times");
    expect(result.stdout).toContain(
      "It did not answer again (ClientTimeout): the run ended there; 2 phases not run\n",
    );
    await cleanUpOnceBack(lab, runId);
  });

  it("with s3bench's flags: s3bench's text has the write test alone, no read test of zeros, and the phases not run follow it", async ({
    lab,
  }) => {
    const s3benchFlags = [
      `-endpoint=${lab.proxy.url}`,
      "-bucket=loadgen",
      "-objectNamePrefix=taillab",
      "-numClients=8",
      "-numSamples=1000000",
      "-objectSize=1024",
    ];
    const result = await hangAfter(
      lab,
      ["run", ...s3benchFlags, "--request-timeout", `${TIMEOUT_MS / 1000}s`],
      50,
    );

    expect(result.code).toBe(4);
    expect(result.stdout).toContain("Results Summary for Write Operation(s)");
    expect(result.stdout).not.toContain("Read Operation(s)");
    expect(result.stdout).not.toContain("Cleaning up");
    expect(result.stderr).toMatch(
      /Results Summary for Read Operation\(s\)\nNot run: the server stopped answering at \d\d:\d\d:\d\d UTC/,
    );
    await cleanUpOnceBack(lab, runIdOf(result.stderr));
  });
});

describe.concurrent(
  "a server that stops answering: repetitions, a workload's preparation, nothing left to run",
  () => {
    const keyOfPut = (line: string) =>
      Number(/^PUT \/loadgen\/taillab\/[^/]+\/(\d+)/.exec(line)?.[1] ?? -1);

    it("--repeat: the repetitions the silence cut are listed not run, the point keeps the ones that ran", async ({
      lab,
    }) => {
      const samples = 2000;
      const run = startCli(
        runArgs(lab, "--clients", "8", "--samples", `${samples}`, "--repeat", "3"),
        lab.env,
      );
      // The second repetition writes keys from `samples` on.
      await until(() => lab.proxy.requestLines().some((line) => keyOfPut(line) >= samples + 50));
      lab.proxy.hang();
      const result = await run.result;
      const summary = summaryOf(result);
      const [point] = summary.points;

      expect(result.code).toBe(4);
      expect(summary.status).toBe("serverLost");
      expect(summary.serverGone?.notRun).toEqual([
        { pointIndex: 0, phase: "GET", repetition: 1 },
        { pointIndex: 0, phase: "DELETE", repetition: 1 },
        { pointIndex: 0, phase: "PUT", repetition: 2 },
        { pointIndex: 0, phase: "GET", repetition: 2 },
        { pointIndex: 0, phase: "DELETE", repetition: 2 },
      ]);
      expect(point?.finished).toBe(true);
      expect(point?.repetitions?.map((each) => each.phases.map((phase) => phase.op))).toEqual([
        ["PUT", "GET", "DELETE"],
        ["PUT"],
      ]);
      // The merged read figures are the first repetition's: the only one that read.
      expect(point?.phases.find((phase) => phase.op === "GET")?.requests).toBe(samples);
      expectEndedWithinOneTimeout(summary, result.stderr);
      expect(result.stderr).toContain("not run: the GET, DELETE phases and 1 more repetition\n");
      const shown = await runCli(["runs", "show", summary.runId], lab.env);
      expect(shown.stdout).toMatch(
        /Results Summary for Write Operation\(s\), repetition 3 of 3\nNot run: the server stopped answering at /,
      );
      await cleanUpOnceBack(lab, summary.runId);
    });

    it("a workload whose objects are being prepared: the mix is not run, exit 4 with what is left, no timeout per cleanup batch", async ({
      lab,
    }) => {
      const run = startCli(
        runArgs(
          lab,
          "--clients",
          "8",
          "--ops",
          "get:80,put:20",
          "--prepare",
          "1000000",
          "--samples",
          "1000",
        ),
        lab.env,
      );
      await until(async () => (await runKeys(lab)) >= 50);
      lab.proxy.hang();
      const hungAt = lab.proxy.requestLines().length;
      const result = await run.result;
      const summary = summaryOf(result);

      expect(result.code).toBe(4);
      expect(summary.status).toBe("serverLost");
      expect(summary.points[0]?.phases).toEqual([]);
      expect(summary.serverLosses?.map((loss) => loss.phase)).toEqual(["prepare"]);
      expect(result.stderr).toContain("; the preparation of the workload's objects ended early\n");
      expect(summary.serverGone).toMatchObject({
        probeError: "ClientTimeout",
        notRun: [{ pointIndex: 0, phase: "mix" }],
      });
      expectEndedWithinOneTimeout(summary, result.stderr);
      expect(sentSince(lab, hungAt).filter((line) => line.startsWith("POST "))).toEqual([]);
      expect(result.stderr).toContain("the run ends here; not run: the mix phase\n");
      expect(lastLine(result)).toMatch(
        new RegExp(
          `^taillab run: exit 4: the cleanup left \\d+ objects under taillab/${summary.runId}/`,
        ),
      );
      await cleanUpOnceBack(lab, summary.runId);
      expect(await runKeys(lab)).toBe(0);
    });

    it("--skip-cleanup and a silence in the last phase: no probe and no notice of one, the run ends as the phase does", async ({
      lab,
    }) => {
      // Only connections that send a GET of the run's objects hang: the writes all pass.
      lab.proxy.hang((sent) => sent.startsWith("GET /loadgen/taillab/"));
      const run = startCli(
        runArgs(
          lab,
          "--clients",
          "8",
          "--samples",
          "3000",
          "--phases",
          "write,read",
          "--skip-cleanup",
        ),
        lab.env,
      );
      const result = await run.result;
      const summary = summaryOf(result);

      expect(summary.status).toBe("serverLost");
      expect(summary.serverLosses?.map((loss) => loss.phase)).toEqual(["GET"]);
      expect(summary.serverGone).toBeUndefined();
      expect(result.stderr).not.toContain("asking the server once");
      expectEndedWithinOneTimeout(summary, result.stderr);
      await cleanUpOnceBack(lab, summary.runId);
    });
  },
);
