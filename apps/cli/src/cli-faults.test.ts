import { RunIndexEntrySchema, RunSummarySchema } from "@taillab/api";
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createControlPlane } from "@taillab/engine";
import { startTestbed } from "@taillab/testbed";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_MAIN, outputOf, runCli, type CliResult } from "./test-support/run-cli.ts";

/**
 * The fault matrix of the command line: bad input and a results library that cannot be written
 * or read. Each case names its outcome: an exit code, one line on stderr naming the field or
 * the file, never a stack trace, and nothing created by a refused command.
 */

let scratch = "";
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "taillab-cli-faults-"));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

let libraries = 0;
async function newLibrary(): Promise<string> {
  libraries += 1;
  return join(scratch, `library-${libraries}`);
}

async function specFile(name: string, contents: string): Promise<string> {
  const path = join(scratch, name);
  await writeFile(path, contents);
  return path;
}

/** Run folders in a library (none when it was never created). */
async function runFolders(library: string): Promise<string[]> {
  const entries = await readdir(library, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
    .map((entry) => entry.name);
}

function expectOneLine(result: CliResult, code: number, line: RegExp): void {
  expect(result.stderr).not.toMatch(/^\s+at /m);
  const lines = result.stderr.trimEnd().split("\n");
  expect(lines.at(-1)).toMatch(line);
  expect({
    code: result.code,
    extraLines: lines.filter((l) => l.startsWith("taillab")).length,
  }).toEqual({ code, extraLines: 1 });
}

const SMALL = ["--clients", "1", "--samples", "4", "--size", "1KiB"];

describe("taillab run: bad input exits 2 with one line naming the field, creating nothing", () => {
  const cases: [string, () => Promise<string[]>, RegExp][] = [
    [
      "--bucket 192.168.1.1 (IP-shaped)",
      async () => [...SMALL, "--bucket", "192.168.1.1"],
      /^taillab run: bucket: "192\.168\.1\.1" must not be shaped like an IP address$/,
    ],
    [
      "--bucket a..b",
      async () => [...SMALL, "--bucket", "a..b"],
      /^taillab run: bucket: .*two dots/,
    ],
    [
      "--bucket xn--lab",
      async () => [...SMALL, "--bucket", "xn--lab"],
      /^taillab run: bucket: .*"xn--"/,
    ],
    [
      "--bucket lab-s3alias",
      async () => [...SMALL, "--bucket", "lab-s3alias"],
      /^taillab run: bucket: .*"-s3alias"/,
    ],
    [
      "--results naming a file",
      async () => [...SMALL, "--results", await specFile("not-a-folder", "")],
      /^taillab run: results: cannot use .* as the results folder: it is a file, not a folder$/,
    ],
    [
      "a spec list of 130 000 values",
      async () => {
        const samples = Array.from({ length: 130_000 }, (_, index) => index + 1);
        return [
          "--spec",
          await specFile("long.json", JSON.stringify({ clients: 1, samples, objectSize: "1KiB" })),
        ];
      },
      /^taillab run: spec: clients × objectSize × samples make 130000 run points; a run holds at most 65536/,
    ],
    [
      "70 000 sweep points",
      async () => {
        const objectSize = Array.from({ length: 10_000 }, (_, index) => index + 1);
        const spec = { clients: [1, 2, 3, 4, 5, 6, 7], samples: 8, objectSize };
        return ["--spec", await specFile("sweep.json", JSON.stringify(spec))];
      },
      /^taillab run: spec: .* make 70000 run points; a run holds at most 65536: split the sweep/,
    ],
    [
      "--ops put:100 --size 1TiB (more than the machine's memory)",
      async () => [...SMALL, "--ops", "put:100", "--size", "1TiB"],
      /^taillab run: objectSize: objects of 1TiB need .* of memory .*; this machine has /,
    ],
    [
      "--size 5GiB × 100 samples on the embedded testbed, which keeps them in memory",
      async () => [...SMALL, "--size", "5GiB", "--clients", "100", "--samples", "100"],
      /^taillab run: objectSize: objects of 5GiB need 505GiB of memory \(the largest object, and 500GiB of objects the embedded testbed keeps in memory\); this machine has \S+: keep the objects on disk \(taillab testbed --dir FOLDER, then --endpoint its URL\) or use a real server \(from --size\)$/,
    ],
    [
      "--verify of 5GiB objects by 100 clients (a stamped copy per PUT in flight)",
      async () => [
        ...SMALL,
        ...["--endpoint", "http://127.0.0.1:9", "--verify"],
        ...["--size", "5GiB", "--clients", "100", "--samples", "100"],
      ],
      /^taillab run: objectSize: objects of 5GiB need 505GiB of memory \(the largest object, and a stamped copy for each of 100 clients' PUTs\); this machine has \S+ \(from --size\)$/,
    ],
    [
      "--size of 5GiB + 1 byte (over a single PUT's limit)",
      async () => [...SMALL, "--size", String(5 * 1024 ** 3 + 1)],
      /^taillab run: objectSize: must be at most 5GiB \(a single PUT's limit; a workload with multipart goes further\) \(from --size\)$/,
    ],
    [
      'a spec file with "clinets"',
      async () => [
        ...SMALL,
        "--spec",
        await specFile("clinets.json", '{ "clinets": 4, "samples": 8 }'),
      ],
      /^taillab run: spec: unknown field "clinets" - did you mean "clients"\?$/,
    ],
    [
      'a spec file with "verfy"',
      async () => [...SMALL, "--spec", await specFile("verfy.json", '{ "verfy": true }')],
      /^taillab run: spec: unknown field "verfy" - did you mean "verify"\?$/,
    ],
    [
      "--clients 1e9",
      async () => [...SMALL, "--clients", "1e9", "--samples", "1e9"],
      /^taillab run: clients: expected at most 100000 clients/,
    ],
    [
      "--clients 100000 on the embedded testbed (more connections than the machine holds)",
      async () => [...SMALL, "--clients", "100000", "--samples", "100000"],
      /^taillab run: clients: 100000 clients need /,
    ],
    [
      "--rate 1000000000/s",
      async () => [
        "--rate",
        "1000000000/s",
        "--duration",
        "1s",
        "--clients",
        "1",
        "--size",
        "1KiB",
      ],
      /^taillab run: openLoop\.rateHz: expected at most 10000000 requests per second \(from --rate\)$/,
    ],
    [
      "--repeat 1.5",
      async () => [...SMALL, "--repeat", "1.5"],
      /^taillab run: repeat: expected a whole number, got 1\.5$/,
    ],
    [
      "--testbed-seed abc",
      async () => [...SMALL, "--testbed-seed", "abc"],
      /^taillab run: testbed\.seed: expected a whole number/,
    ],
    [
      "--size uniform:4MiB:1KiB (bounds the wrong way round)",
      async () => [...SMALL, "--ops", "put:100", "--size", "uniform:4MiB:1KiB"],
      /^taillab run: size: "uniform:4MiB:1KiB" — the lower bound must be below the upper bound/,
    ],
    [
      "--size lognormal:64KiB (one bound)",
      async () => [...SMALL, "--ops", "put:100", "--size", "lognormal:64KiB"],
      /^taillab run: size: .*expected lognormal:MIN:MAX with two sizes/,
    ],
    [
      "--size uniform:1KiB:4KiB without --ops",
      async () => [...SMALL, "--size", "uniform:1KiB:4KiB"],
      /^taillab run: size: .* sizes a mixed workload's objects: add --ops/,
    ],
  ];

  it.each(cases)("%s", async (_, extraArgs, line) => {
    const library = await newLibrary();
    const out = join(scratch, `out-${libraries}`);
    const extra = await extraArgs();
    const args = ["run", "--out", out, ...extra];
    const result = await runCli(
      extra.includes("--results") ? args : [...args, "--results", library],
    );
    expectOneLine(result, 2, line);
    expect(result.stdout).toBe("");
    expect(await runFolders(library)).toEqual([]);
    expect(await stat(out).catch(() => null)).toBeNull();
  });
});

describe("taillab run: what is right is accepted", () => {
  it("a spec file that starts with a UTF-8 byte-order mark: runs", async () => {
    const spec = await specFile(
      "bom.json",
      '\uFEFF{ "clients": 1, "samples": 4, "objectSize": "1KiB" }',
    );
    const result = await runCli(["run", "--spec", spec, "--json", "--results", await newLibrary()]);
    expect(result.code).toBe(0);
    expect(RunSummarySchema.parse(JSON.parse(result.stdout)).points).toHaveLength(1);
  });

  it("--mode hedged with the testbed's one replica: runs, and says its backups share it", async () => {
    const result = await runCli([
      "run",
      ...SMALL,
      "--mode",
      "hedged",
      "--results",
      await newLibrary(),
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr.split("\n")).toContain(
      "hedged mode with one replica: backups go to the same server as their first attempt, on connections of their own, and share its queue; give several endpoints (or testbed replicas) to send them elsewhere",
    );
  });
});

describe("taillab runs and report: a run the library cannot act on exits 2 in one line", () => {
  it.each([
    [["runs", "show", "no-such-run"], /^taillab runs: runId: no run with id "no-such-run" in /],
    [["runs", "rm", "no-such-run"], /^taillab runs: runId: no run with id "no-such-run" in /],
    [["report", "no-such-run"], /^taillab report: runId: no run with id "no-such-run" in /],
    [["compare", "no-such-run"], /^taillab compare: runId: no run with id "no-such-run" in /],
  ])("%j: unknown id", async (args, line) => {
    expectOneLine(await runCli([...args, "--results", await newLibrary()]), 2, line);
  });

  it.each([
    [
      ["testbed", "--bucket", "a..b"],
      /^taillab testbed: bucket: "a\.\.b" must not have two dots in a row$/,
    ],
    [
      ["runs", "import", "/no/such/folder"],
      /^taillab runs: path: \/no\/such\/folder: there is no such file or folder$/,
    ],
    [
      ["runs", "import", "/no/such/export.json"],
      /^taillab runs: path: \/no\/such\/export\.json: there is no such file or folder$/,
    ],
    [["runs", "rename", "no-such-run", " "], /^taillab runs: name: cannot be empty$/],
  ])("%j: bad input", async (args, line) => {
    const library = args[0] === "testbed" ? [] : ["--results", await newLibrary()];
    expectOneLine(await runCli([...args, ...library]), 2, line);
  });

  it("runs import of a file that is not an export: refused, naming the path", async () => {
    const path = await specFile("not-an-export.json", "nope");
    const result = await runCli(["runs", "import", path, "--results", await newLibrary()]);
    expectOneLine(result, 2, /^taillab runs: path: .*not-an-export\.json: .*not valid JSON$/);
  });

  it("runs rm of a run still being written: refused, the run goes on", async () => {
    const library = await newLibrary();
    const args = [
      "run",
      "--results",
      library,
      "--clients",
      "1",
      "--samples",
      "5000000",
      "--size",
      "1KiB",
    ];
    const child = spawn(process.execPath, [CLI_MAIN, ...args], { stdio: "ignore" });
    try {
      let running: string | undefined;
      while (running === undefined) {
        const listed = await runCli(["runs", "list", "--json", "--results", library]);
        const runs = (JSON.parse(listed.stdout) as unknown[]).map((entry) =>
          RunIndexEntrySchema.parse(entry),
        );
        running = runs.find((run) => run.status === "running")?.id;
      }
      const removal = await runCli(["runs", "rm", running, "--results", library]);
      expectOneLine(
        removal,
        2,
        new RegExp(
          `^taillab runs: runId: run ${running} is still being written \\(by process \\d+\\); stop it before deleting it$`,
        ),
      );
      expect(await runFolders(library)).toEqual([running]);
    } finally {
      child.kill("SIGKILL");
    }
  });
});

describe("taillab with damaged run folders: every run listed, what is wrong said", () => {
  let library = "";
  const kinds = ["summary", "meta", "log", "histograms", "garbage"] as const;
  const ids: Record<(typeof kinds)[number], string> = {
    summary: "",
    meta: "",
    log: "",
    histograms: "",
    garbage: "",
  };
  /** Records each run wrote: 4 PUTs, 4 GETs, 4 DELETEs. */
  const RECORDS = 12;

  beforeAll(async () => {
    library = await newLibrary();
    for (const kind of kinds) {
      const run = await runCli(["run", ...SMALL, "--json", "--results", library]);
      ids[kind] = RunSummarySchema.parse(JSON.parse(run.stdout)).runId;
    }
    const halve = async (path: string) => truncate(path, Math.floor((await stat(path)).size / 2));
    await halve(join(library, ids.summary, "summary.json"));
    await halve(join(library, ids.meta, "run.json"));
    await halve(join(library, ids.log, "records.log"));
    await halve(join(library, ids.histograms, "histograms.json"));
    // 64 bytes of garbage in the middle of the log: the frames after them are intact.
    const log = join(library, ids.garbage, "records.log");
    const bytes = await readFile(log);
    bytes.fill(0xee, bytes.length >> 1, (bytes.length >> 1) + 64);
    await writeFile(log, bytes);
  });

  it("runs list: all five listed, each marked damaged with its file", async () => {
    const result = await runCli(["runs", "list", "--results", library]);
    expect(result.code).toBe(0);
    expect(result.stdout.match(/\(damaged\)/g)).toHaveLength(5);
    expect(result.stdout).toMatch(
      new RegExp(`${ids.summary} is damaged: summary\\.json is not valid JSON`),
    );
    expect(result.stdout).toMatch(
      new RegExp(`${ids.meta} is damaged: run\\.json is not valid JSON`),
    );
    for (const kind of ["log", "garbage"] as const) {
      expect(result.stdout).toMatch(
        new RegExp(
          `${ids[kind]} is damaged: records\\.log: the \\d+ bytes after record \\d+ could not be read \\(cut short or damaged\\); \\d+ of the run's ${RECORDS} records are lost`,
        ),
      );
    }
    expect(result.stdout).toMatch(
      new RegExp(`${ids.histograms} is damaged: histograms\\.json is not valid JSON`),
    );
  });

  it("runs show and report, histograms.json cut: shown and exported, rebuilt from the records, the damage said", async () => {
    const shown = await runCli(["runs", "show", ids.histograms, "--results", library]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("damaged: histograms.json is not valid JSON");
    expect(shown.stdout).toContain("the histograms are rebuilt from the records");
    const report = await runCli([
      ...["report", ids.histograms, "--format", "json", "--results", library],
    ]);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stderr).toMatch(
      new RegExp(`^warning: run ${ids.histograms} is damaged: histograms\\.json `),
    );
    const exported = JSON.parse(report.stdout) as { histograms: { op: string }[] };
    expect(exported.histograms.map((phase) => phase.op)).toEqual(["PUT", "GET", "DELETE"]);
  });

  it("runs show, summary.json cut: shown from the records, the damage said", async () => {
    const result = await runCli(["runs", "show", ids.summary, "--results", library]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("damaged: summary.json is not valid JSON");
    expect(result.stdout).toContain("(summary rebuilt from the records that reached the disk)");
  });

  it("runs show and report, run.json cut: exit 3, one line naming run.json", async () => {
    for (const command of [["runs", "show"], ["report"]]) {
      const result = await runCli([...command, ids.meta, "--results", library]);
      expectOneLine(
        result,
        3,
        new RegExp(`^taillab ${command[0]}: run ${ids.meta}: run\\.json is not valid JSON`),
      );
    }
  });

  it.each([
    ["cut in half", "log"],
    ["with garbage in the middle", "garbage"],
  ] as const)(
    "report --requests of a records.log %s: exports what was read, and says how many records were lost",
    async (_, kind) => {
      const shown = JSON.parse(
        (await runCli(["runs", "show", ids[kind], "--json", "--results", library])).stdout,
      ) as { recordCount: number; damage: { skippedLogBytes: number; lostRecords: number } };
      expect(shown.recordCount).toBeLessThan(RECORDS);
      expect(shown.damage.skippedLogBytes).toBeGreaterThan(0);
      expect(shown.damage.lostRecords).toBe(RECORDS - shown.recordCount);
      const result = await runCli([
        ...["report", ids[kind], "--format", "csv", "--requests", "--results", library],
      ]);
      expect(result.code).toBe(0);
      expect(result.stdout.trimEnd().split("\n")).toHaveLength(shown.recordCount + 1);
      expect(result.stderr).toMatch(
        new RegExp(
          `^warning: run ${ids[kind]} is damaged: records\\.log: .*; ${RECORDS - shown.recordCount} of the run's ${RECORDS} records are lost`,
        ),
      );
    },
  );
});

/** A full disk, made real: a tmpfs of `size` in a mount namespace of its own (Linux, unshare). */
const canMountTmpfs =
  spawnSync("unshare", ["-rm", "sh", "-c", `mount -t tmpfs tmpfs "${tmpdir()}"`]).status === 0;

async function runOnSmallDisk(
  size: string,
  fill: boolean,
  args: string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  const fillUp = fill ? 'head -c 2m /dev/zero > "$disk/fill" 2>/dev/null;' : "";
  const script = `disk="$1" node="$2" main="$3"; shift 3; mount -t tmpfs -o size=${size} tmpfs "$disk" && ${fillUp} exec "$node" "$main" run --results "$disk" "$@"`;
  const disk = await mkdtemp(join(scratch, "disk-"));
  const shellArgs = [script, "sh", disk, process.execPath, CLI_MAIN, ...args];
  return outputOf(
    spawn("unshare", ["-rm", "sh", "-c", ...shellArgs], { env: { ...process.env, ...env } }),
  );
}

describe.skipIf(!canMountTmpfs)("taillab run on a full results disk: exit 3, one line", () => {
  it("full at start: exit 3, one line, nothing measured", async () => {
    const result = await runOnSmallDisk("1m", true, SMALL);
    expectOneLine(
      result,
      3,
      /^taillab run: could not create run \S+ in \S+: the results disk is full$/,
    );
    expect(result.stdout).toBe("");
  });

  it("full mid-run: the summary of the records kept, then exit 3 and one line", async () => {
    const result = await runOnSmallDisk("256k", false, [
      "--clients",
      "2",
      "--samples",
      "20000",
      "--size",
      "1KiB",
    ]);
    expectOneLine(
      result,
      3,
      /^taillab run: results disk is full: could not write \S+records\.log; the run's records up to here are kept$/,
    );
    expect(result.stdout).toContain("Results Summary for Write Operation(s)");
    expect(result.stdout).toMatch(/Run id: \S+ \(taillab runs show \S+\)/);
  });

  it("full mid-run against a real server: the run's cleanup still removes every object it wrote", async () => {
    const credentials = { accessKeyId: "DISKFULL", secretAccessKey: "disk-full-secret" };
    const server = await startTestbed({ credentials, buckets: ["loadgen"] });
    const bucket = createControlPlane({
      url: server.url,
      region: "us-east-1",
      addressing: "path",
      credentials,
      bucket: "loadgen",
      maxConnections: 1,
    });
    try {
      const result = await runOnSmallDisk(
        "256k",
        false,
        ["--endpoint", server.url, "--clients", "2", "--samples", "20000", "--size", "1KiB"],
        {
          AWS_ACCESS_KEY_ID: credentials.accessKeyId,
          AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
        },
      );
      expectOneLine(result, 3, /^taillab run: results disk is full: /);
      expect(result.stderr).toMatch(/^deleting the \d+ objects the run wrote and did not delete$/m);
      expect(server.stats().byOperation["PutObject"]).toBeGreaterThan(0);
      expect(await bucket.listKeys("")).toEqual([]);
    } finally {
      await bucket.close();
      await server.close();
    }
  });
});
