import { RunSummarySchema, type PhaseSummary, type RunSummary } from "@taillab/api";
import { openResultsStore } from "@taillab/backend";
import { createTransport, type ControlPlane, type ObjectTransport } from "@taillab/engine";
import { startDrippingProxy } from "@taillab/test-support";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endedBefore, runCli, startCli, type CliResult } from "./test-support/run-cli.ts";
import { createServerBucket } from "./test-support/server-bucket.ts";
import { startTestbedProcess, type TestbedProcess } from "./test-support/testbed-process.ts";

/**
 * The fault matrix of a server that fails while a run is on: hung (SIGSTOP), dripping its
 * answers, killed and restarted, and Ctrl-C during each. The server is `taillab testbed` in a
 * process of its own; a run is the real command. Each case names its outcome: how the run ends,
 * its exit code and last line, what it left on the server and that `taillab cleanup` removes
 * exactly that. Runs give up on a request after 1 s (--request-timeout; more on a machine too
 * busy for that, see startRunUntil), so each case takes seconds; nothing here bounds a duration
 * but the test's own timeout, which a hang would hit.
 * What is bounded is counted instead: a stopped server stays stopped until the run has exited
 * (a run that waited for it would never exit), and a proxy in front counts the calls a cleanup
 * makes after Ctrl-C.
 * The cases run side by side (but for the killed-and-restarted one): each has its own server,
 * folder and proxy, and most of its time is spent waiting on a server that is stopped, silent or
 * down, a wait that ends when its run does.
 */

let scratch = "";
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "taillab-server-faults-"));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

let folders = 0;
const newFolder = () => join(scratch, `testbed-${(folders += 1)}`);

/** Objects that are not the run's: they must survive the run, its cleanup and taillab cleanup. */
const FOREIGN_KEYS = ["keep/me", "taillab/other-run/0", "taillab/0"];

interface Server {
  process: TestbedProcess;
  bucket: ControlPlane;
  transport: ObjectTransport;
  close(): Promise<void>;
}

async function startServer(dir?: string): Promise<Server> {
  const process = await startTestbedProcess(dir ? { dir } : {});
  return attach(process);
}

async function attach(process: TestbedProcess): Promise<Server> {
  const credentials = {
    accessKeyId: process.env.AWS_ACCESS_KEY_ID,
    secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY,
  };
  const { bucket } = await createServerBucket({ url: process.url, ...credentials });
  const transport = createTransport(
    "fast",
    {
      url: process.url,
      region: "us-east-1",
      addressing: "path",
      credentials,
      bucket: "loadgen",
      maxConnections: 1,
    },
    () => 0,
  );
  return {
    process,
    bucket,
    transport,
    close: async () => {
      await transport.close();
      await bucket.close();
      await process.kill();
    },
  };
}

/**
 * A hung server killed and started again on its folder: what it was sent while it hung (a
 * DELETE the client gave up on) goes with it instead of landing later, unseen by the run.
 */
async function revive(server: Server): Promise<Server> {
  await server.close();
  return attach(await server.process.restart());
}

async function putForeignObjects(server: Server): Promise<void> {
  for (const key of FOREIGN_KEYS) {
    expect((await server.transport.putObject(key, Buffer.from("not the run's"))).error).toBeNull();
  }
}

type Run = ReturnType<typeof startCli>;

const MAX_REQUEST_TIMEOUT_S = 8;

/**
 * Starts a run and polls until `check` holds while it goes on. On a machine too busy for its
 * server to answer within the run's request timeout, the run finds the server silent before the
 * test made it so and ends first (exit 4): what it left is removed, and it starts again with
 * twice the timeout, up to 8 s. Any other early end fails here with what the run printed,
 * instead of leaving the test to poll until its own timeout.
 */
async function startRunUntil(
  args: readonly string[],
  env: Record<string, string>,
  check: () => Promise<boolean>,
): Promise<Run> {
  for (let attempt = [...args]; ; attempt = withDoubledTimeout(attempt)) {
    const run = startCli(attempt, env);
    const ended = await endedBefore(run, check);
    if (!ended) return run;
    const { code, stdout, stderr } = ended;
    if (code !== 4 || requestTimeoutS(attempt) >= MAX_REQUEST_TIMEOUT_S) {
      throw new Error(`the run ended (exit ${code}) before the test's moment:\n${stderr}`);
    }
    const { runId } = RunSummarySchema.parse(JSON.parse(stdout));
    const results = attempt.includes("--results")
      ? ["--results", attempt[attempt.indexOf("--results") + 1] ?? ""]
      : [];
    expect((await runCli(["cleanup", runId, ...results], env)).code).toBe(0);
  }
}

const requestTimeoutS = (args: readonly string[]) =>
  Number.parseFloat(args[args.indexOf("--request-timeout") + 1] ?? "");

function withRequestTimeout(args: readonly string[], seconds: number): string[] {
  const at = args.indexOf("--request-timeout") + 1;
  return args.map((arg, index) => (index === at ? `${seconds}s` : arg));
}

const withDoubledTimeout = (args: readonly string[]) =>
  withRequestTimeout(args, 2 * requestTimeoutS(args));

/** Until the run has written `count` objects of its own (keys under taillab/ but the foreign). */
const objectsWritten = (server: Server, count: number) => async () => {
  const keys = await server.bucket.listKeys("taillab/");
  return keys.filter((key) => !FOREIGN_KEYS.includes(key)).length >= count;
};

const RUN = ["--clients", "4", "--size", "1KiB", "--request-timeout", "1s", "--json"];
const runArgs = (url: string, ...extra: string[]) => [
  "run",
  "--endpoint",
  url,
  ...RUN,
  "--samples",
  "1000000",
  ...extra,
];

function summaryOf(result: CliResult): RunSummary {
  return RunSummarySchema.parse(JSON.parse(result.stdout));
}

function phasesOf(summary: RunSummary): PhaseSummary[] {
  return summary.points.flatMap((point) => point.phases);
}

function lastLine(result: CliResult): string {
  return result.stderr.trimEnd().split("\n").at(-1) ?? "";
}

const serverLostNotices = (result: CliResult) =>
  result.stderr.match(/^the server stopped answering at \d\d:\d\d:\d\d UTC .* ended early$/gm) ??
  [];

/** Requests of the library's newest run that failed with `code`, of the records on its disk. */
async function recordedFailures(library: string, code: string): Promise<number> {
  const store = await openResultsStore(library);
  const [run] = await store.list();
  if (!run) return 0;
  const columns = await store.loadRecords(run.id);
  const id = columns.errorCodes.indexOf(code);
  return id < 1 ? 0 : columns.errorId.filter((errorId) => errorId === id).length;
}

/** What the run left under its own prefix. */
const leftKeys = (server: Server, runId: string) => server.bucket.listKeys(`taillab/${runId}/`);

async function expectOnlyForeignLeft(server: Server): Promise<void> {
  expect((await server.bucket.listKeys("")).sort()).toEqual([...FOREIGN_KEYS].sort());
}

describe.concurrent("a hung server (SIGSTOP)", () => {
  it.each(["fast", "sdk"])(
    "through the %s path: the first phase ends 'the server stopped answering', a probe gets no answer either and the run ends there, its cleanup sends nothing, exit 4 says what is left; taillab cleanup removes just that once the server is back",
    async (transport) => {
      let server = await startServer(newFolder());
      try {
        await putForeignObjects(server);
        const run = await startRunUntil(
          runArgs(server.process.url, "--transport", transport),
          server.process.env,
          objectsWritten(server, 50),
        );
        server.process.signal("SIGSTOP");
        const result = await run.result;
        server = await revive(server);

        expect(result.code).toBe(4);
        const summary = summaryOf(result);
        const { runId } = summary;
        // A timeout per request, and back-off: a few failures per phase, not thousands.
        for (const phase of phasesOf(summary)) {
          expect(phase.errorsByCode["ClientTimeout"]).toBeGreaterThan(0);
          expect(phase.errors).toBeLessThan(100);
        }
        expect(serverLostNotices(result)).toHaveLength(1);
        expect(summary.serverGone?.notRun.map((phase) => phase.phase)).toEqual(["GET", "DELETE"]);
        const left = (await leftKeys(server, runId)).length;
        expect(left).toBeGreaterThan(0);
        expect(lastLine(result)).toMatch(
          new RegExp(
            `^taillab run: exit 4: the cleanup left \\d+ objects under taillab/${runId}/ in bucket loadgen \\(ClientTimeout \\d+\\); taillab cleanup ${runId} removes them; \\d+ of \\d+ requests failed \\(ClientTimeout \\d+\\)$`,
          ),
        );

        const shown = await runCli(["runs", "show", runId]);
        expect(shown.stdout).toMatch(
          new RegExp(
            `left on the server: \\d+ objects under taillab/${runId}/ in bucket loadgen \\(ClientTimeout \\d+\\), after its cleanup of .*; taillab cleanup ${runId} removes them`,
          ),
        );

        const cleanup = await runCli(["cleanup", runId], server.process.env);
        expect(cleanup.stderr).toBe("");
        expect(cleanup.stdout).toBe(
          `run ${runId}: removed ${left} objects, 0 open uploads and 0 buckets\n`,
        );
        expect(cleanup.code).toBe(0);
        await expectOnlyForeignLeft(server);
        expect((await runCli(["runs", "show", runId])).stdout).not.toContain("left on the server");
      } finally {
        await server.close();
      }
    },
  );

  it("Ctrl-C while it hangs: the run stops, its cleanup sends one DeleteObjects of its three and gives up on it, exit 130 says what is left; the server resumes only once the run has exited", async () => {
    let server = await startServer(newFolder());
    // In front of the server: it sees what the run sends even while the server is stopped.
    const proxy = await startDrippingProxy({ host: "127.0.0.1", port: server.process.port });
    try {
      await putForeignObjects(server);
      // More than two batches of 1 000 keys for the cleanup's DeleteObjects.
      const run = await startRunUntil(
        runArgs(proxy.url),
        server.process.env,
        objectsWritten(server, 2_500),
      );
      server.process.signal("SIGSTOP");
      await sleep(500);
      const sentBeforeStop = proxy.requestLines().length;
      run.child.kill("SIGINT");
      // Stopped until the run has exited: a run that needed an answer would never exit, and the
      // test's own timeout would fail it.
      const result = await run.result;
      const sentAfterStop = proxy.requestLines().slice(sentBeforeStop);
      server = await revive(server);

      expect(result.code).toBe(130);
      const { runId, status } = summaryOf(result);
      expect(status).toBe("stopped");
      // The cleanup is bounded by one call: the first DeleteObjects got no answer, so the
      // batches after it were not sent to wait out a timeout each.
      const posts = sentAfterStop.filter((line) => line.startsWith("POST "));
      expect(posts, sentAfterStop.join("\n")).toHaveLength(1);
      expect(posts[0]).toMatch(/^POST \/loadgen\/?\?delete\b/);
      expect(result.stderr).toContain(
        `stopping: in-flight requests cut off, cleaning up (Ctrl-C again quits at once; taillab cleanup ${runId} removes what is left)`,
      );
      expect(lastLine(result)).toMatch(
        new RegExp(
          `^taillab run: exit 130 \\(stopped\\): the cleanup left \\d+ objects under taillab/${runId}/ in bucket loadgen \\(ClientTimeout \\d+\\); taillab cleanup ${runId} removes them$`,
        ),
      );
      expect((await runCli(["cleanup", runId], server.process.env)).code).toBe(0);
      await expectOnlyForeignLeft(server);
    } finally {
      await proxy.close();
      await server.close();
    }
  });
});

describe.concurrent("a server that drips its answers", () => {
  it.each([
    ["runs on", null],
    ["Ctrl-C", "SIGINT"],
  ] as const)(
    "%s: every request is cut at the request timeout (ClientTimeout), the phases end early and what is left is said; taillab cleanup removes it once answers flow again",
    async (_case, signal) => {
      const server = await startServer();
      const proxy = await startDrippingProxy({ host: "127.0.0.1", port: server.process.port });
      try {
        await putForeignObjects(server);
        const run = await startRunUntil(
          runArgs(proxy.url, "--transport", "sdk"),
          server.process.env,
          objectsWritten(server, 50),
        );
        proxy.drip();
        if (signal) {
          await sleep(500);
          run.child.kill(signal);
        }
        const result = await run.result;
        proxy.pass();

        const summary = summaryOf(result);
        const { runId } = summary;
        expect(result.code).toBe(signal ? 130 : 4);
        if (!signal) {
          expect(serverLostNotices(result)).toHaveLength(1);
          for (const phase of phasesOf(summary)) {
            expect(phase.errorsByCode["ClientTimeout"]).toBeGreaterThan(0);
          }
        }
        expect(lastLine(result)).toMatch(
          new RegExp(`the cleanup left \\d+ objects under taillab/${runId}/ in bucket loadgen`),
        );
        const cleanup = await runCli(["cleanup", runId], server.process.env);
        expect(cleanup.code).toBe(0);
        await expectOnlyForeignLeft(server);
      } finally {
        await proxy.close();
        await server.close();
      }
    },
  );
});

// Alone, not side by side: its test must see a refusal on disk and freeze the run within one
// request timeout, and cases beside it would make that race the machine's load.
describe("a server killed and restarted mid-run", () => {
  it("back-off keeps the failures few, the run goes on once it is back and removes everything it wrote: exit 1 says how many requests failed", async () => {
    const dir = newFolder();
    let server = await startServer(dir);
    try {
      await putForeignObjects(server);
      const library = join(newFolder(), "library");
      // Refusals for one request timeout (5 s at most) are a lost server: the test must see one
      // on disk and freeze the run within that, which took a busy machine more than 1 s.
      const run = await startRunUntil(
        withRequestTimeout(["run", "--endpoint", server.process.url, ...RUN], 5).concat(
          "--samples",
          "10000",
        ),
        { ...server.process.env, TAILLAB_RESULTS_DIR: library },
        objectsWritten(server, 50),
      );
      await server.close();
      const metRefusal = async () => (await recordedFailures(library, "ECONNREFUSED")) > 0;
      expect(await endedBefore(run, metRefusal)).toBeNull();
      // The run has met the dead server. It is frozen while a new one starts, however long that
      // takes, so it never counts the restart as the server's silence (5 s of it would end the
      // phase early): the outage it sees ends when the test says, not when the start is done.
      run.child.kill("SIGSTOP");
      server = await attach(await server.process.restart());
      run.child.kill("SIGCONT");
      const result = await run.result;

      expect(result.code).toBe(1);
      const summary = summaryOf(result);
      const refused = phasesOf(summary).reduce(
        (sum, phase) => sum + (phase.errorsByCode["ECONNREFUSED"] ?? 0),
        0,
      );
      expect(refused).toBeGreaterThan(0);
      expect(refused).toBeLessThan(200);
      expect(lastLine(result)).toMatch(
        /^taillab run: exit 1: \d+ of \d+ requests failed \(.*ECONNREFUSED \d+/,
      );
      expect(await leftKeys(server, summary.runId)).toEqual([]);
      await expectOnlyForeignLeft(server);
    } finally {
      await server.close();
    }
  });

  it("Ctrl-C while it is down: the back-off ends at once, the cleanup fails fast, exit 130 says what is left; after the restart taillab cleanup removes it", async () => {
    const dir = newFolder();
    let server = await startServer(dir);
    try {
      await putForeignObjects(server);
      const run = await startRunUntil(
        runArgs(server.process.url),
        server.process.env,
        objectsWritten(server, 50),
      );
      await server.close();
      await sleep(500);
      run.child.kill("SIGINT");
      const result = await run.result;

      expect(result.code).toBe(130);
      const { runId } = summaryOf(result);
      expect(lastLine(result)).toMatch(
        new RegExp(
          `^taillab run: exit 130 \\(stopped\\): the cleanup left \\d+ objects under taillab/${runId}/ in bucket loadgen \\(ECONNREFUSED \\d+\\); taillab cleanup ${runId} removes them$`,
        ),
      );
      server = await attach(await server.process.restart());
      expect((await runCli(["cleanup", runId], server.process.env)).code).toBe(0);
      await expectOnlyForeignLeft(server);
    } finally {
      await server.close();
    }
  });
});

describe.concurrent("Ctrl-C during a mix with bucket operations", () => {
  it("leaves no bucket behind, three times over", async () => {
    const server = await startServer();
    try {
      const workloadBuckets = async () =>
        server.bucket.listBuckets((name) => name.startsWith("taillab-"));
      for (let round = 0; round < 3; round += 1) {
        const run = await startRunUntil(
          [
            ...runArgs(server.process.url),
            "--ops",
            "create-bucket:45,delete-bucket:45,put:10",
            "--prepare",
            "10",
            "--clients",
            "8",
          ],
          server.process.env,
          async () => (await workloadBuckets()).length >= 5,
        );
        run.child.kill("SIGINT");
        const result = await run.result;
        expect(result.code).toBe(130);
        expect(await workloadBuckets()).toEqual([]);
      }
      expect(await server.bucket.listBuckets(() => true)).toEqual(["loadgen"]);
    } finally {
      await server.close();
    }
  });
});

describe.concurrent("a run killed mid-run (kill -9)", () => {
  it("runs show says what it may have left and how to remove it; taillab cleanup removes just that", async () => {
    const server = await startServer();
    // --results may name a new folder, but in a folder that exists.
    const parent = newFolder();
    await mkdir(parent);
    const library = join(parent, "library");
    try {
      await putForeignObjects(server);
      const run = await startRunUntil(
        [...runArgs(server.process.url), "--results", library],
        server.process.env,
        objectsWritten(server, 50),
      );
      run.child.kill("SIGKILL");
      await run.result;

      const [entry] = JSON.parse(
        (await runCli(["runs", "list", "--json", "--results", library])).stdout,
      );
      expect(entry).toMatchObject({ status: "interrupted" });
      const runId: string = entry.id;
      const shown = await runCli(["runs", "show", runId, "--results", library]);
      expect(shown.stdout).toContain(
        `may be left on the server: objects under taillab/${runId}/ in bucket loadgen at ${server.process.url}, open multipart uploads and workload buckets (taillab-${runId}-w…), as the run ended before its cleanup; taillab cleanup ${runId} removes them`,
      );

      const cleanup = await runCli(["cleanup", runId, "--results", library], server.process.env);
      expect(cleanup.code).toBe(0);
      await expectOnlyForeignLeft(server);
      const after = await runCli(["runs", "show", runId, "--results", library]);
      expect(after.stdout).not.toContain("left on the server");
    } finally {
      await server.close();
    }
  });
});

describe.concurrent("taillab cleanup", () => {
  it("removes a run's objects, open uploads and workload buckets, and nothing else of the bucket or the server", async () => {
    const server = await startServer();
    try {
      await putForeignObjects(server);
      const kept = await runCli(
        ["run", "--endpoint", server.process.url, ...RUN, "--samples", "20", "--skip-cleanup"],
        server.process.env,
      );
      expect(kept.code).toBe(0);
      const { runId } = summaryOf(kept);
      expect(await leftKeys(server, runId)).toHaveLength(20);
      const shown = await runCli(["runs", "show", runId]);
      expect(shown.stdout).toContain(
        `left on the server: its objects under taillab/${runId}/ in bucket loadgen at ${server.process.url} (it kept them); taillab cleanup ${runId} removes them`,
      );

      // What a run killed mid-mix would also have left, and look-alikes that are not its own.
      const open = await server.transport.createMultipartUpload(`taillab/${runId}/20`);
      const foreignUpload = await server.transport.createMultipartUpload("taillab/other-run/up");
      const runBucket = `taillab-${runId.toLowerCase()}-w0-1`;
      const lookAlikes = [
        `taillab-${runId.toLowerCase()}-w0-x`,
        `taillab-${runId.toLowerCase()}0-w0-1`,
      ];
      for (const name of [runBucket, ...lookAlikes]) {
        expect((await server.transport.createBucket(name)).error).toBeNull();
      }
      expect(open.uploadId).not.toBeNull();

      const cleanup = await runCli(["cleanup", runId, "--json"], server.process.env);
      expect(cleanup.code).toBe(0);
      expect(JSON.parse(cleanup.stdout)).toMatchObject({
        removed: { objects: 20, uploads: 1, buckets: 1 },
        objectsLeft: 0,
        uploadsLeft: 0,
        bucketsLeft: [],
        unchecked: [],
      });
      await expectOnlyForeignLeft(server);
      expect((await server.bucket.listUploads("")).map((upload) => upload.uploadId)).toEqual([
        foreignUpload.uploadId,
      ]);
      expect((await server.bucket.listBuckets(() => true)).sort()).toEqual(
        ["loadgen", ...lookAlikes].sort(),
      );
      expect((await runCli(["runs", "show", runId])).stdout).not.toContain("left on the server");
    } finally {
      await server.close();
    }
  });

  it("a run of the embedded testbed has nothing to clean up: one line, exit 2", async () => {
    const run = await runCli(["run", ...RUN, "--samples", "4"]);
    const { runId } = summaryOf(run);
    const cleanup = await runCli(["cleanup", runId]);
    expect(cleanup.code).toBe(2);
    expect(cleanup.stderr).toBe(
      `taillab cleanup: runId: run ${runId} ran on the embedded testbed, which kept nothing once it stopped: there is nothing to clean up\n`,
    );
  });
});
