import { InputError } from "@taillab/api";
import { fuzzSeed } from "@taillab/test-support";
import fc from "fast-check";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseFlagsAsWritten, UsageError } from "./cli-args.ts";
import { main } from "./cli-main.ts";
import { checkedRunInput } from "./run-command.ts";
import { RUN_FLAGS } from "./run-flags.ts";
import { withoutControlCharacters } from "./terminal-output.ts";

/**
 * `taillab run`'s input, generated: command lines and spec files, strings of any code point
 * (controls, non-ASCII) among them. Each goes through the steps the command takes before it runs
 * anything (flags, spec file, validation): the answer is a spec or field errors, never another
 * exception. Each one refused then goes through the command itself, main in this process, and
 * the user sees what they must: exit 2, nothing on stdout, one line on stderr naming the field,
 * and nothing created. At least a thousand refused inputs a run.
 */

const SEED = fuzzSeed();
let dir = "";
let library = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "taillab-cli-fuzz-"));
  library = join(dir, "library");
  vi.stubEnv("TAILLAB_RESULTS_DIR", library);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
});

const FLAG_NAMES = RUN_FLAGS.filter(
  // Path flags (--out, --junit, --results) have tests of their own below.
  (flag) => !["help", "spec", "out", "junit", "results"].includes(flag.name),
);

const WORDS = [
  "1",
  "0",
  "-1",
  "1.5",
  "1e9",
  "abc",
  "8",
  "1KiB",
  "5TiB",
  "p95",
  "30ms",
  "500/s",
  "get:70,put:30",
  "uniform:1KiB:4KiB",
  "hedged",
  "poisson",
  "zipf:1.1",
  "xn--b",
  "192.168.1.1",
  "http://127.0.0.1:1",
  "",
  ",",
  "1,2,3",
];
const value = fc.oneof(
  fc.constantFrom(...WORDS),
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.double().map(String),
  fc
    .array(fc.integer({ min: -5, max: 1e6 }), { minLength: 1, maxLength: 5 })
    .map((list) => list.join(",")),
);
const flag = fc.oneof(
  fc
    .tuple(fc.constantFrom(...FLAG_NAMES), value)
    .map(([definition, text]) =>
      definition.takesValue ? [`--${definition.name}`, text] : [`--${definition.name}`],
    ),
  fc.string({ unit: "binary", minLength: 1, maxLength: 10 }).map((word) => [`--${word}`]),
  value.map((word) => [word]),
);
const commandLine = fc.array(flag, { maxLength: 8 }).map((parts) => parts.flat());

interface Problem {
  field: string;
  message: string;
}

/**
 * What `taillab run` does with a command line before it runs anything: the spec is fine (null),
 * or the problems, each naming its field. Any other exception fails the test.
 */
async function problemsOf(argv: string[]): Promise<Problem[] | null> {
  try {
    const { flags, written, repeated } = parseFlagsAsWritten(argv, RUN_FLAGS);
    await checkedRunInput(flags, written, repeated);
    return null;
  } catch (error) {
    const problems =
      error instanceof InputError ? error.problems : error instanceof UsageError ? [error] : null;
    if (problems === null) throw error;
    expect(problems.length).toBeGreaterThan(0);
    for (const { field, message } of problems) {
      expect(field).toMatch(/\S/);
      expect(message).toMatch(/\S/);
    }
    return problems;
  }
}

/** `taillab run ARGV` in this process, its output captured. */
function runMain(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return mainOf(["run", ...argv]);
}

/** `taillab ARGV` in this process, its output captured. */
async function mainOf(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = { stdout: "", stderr: "" };
  const capture = (stream: "stdout" | "stderr") =>
    vi.spyOn(process[stream], "write").mockImplementation((chunk: string | Uint8Array) => {
      output[stream] += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
      return true;
    });
  const spies = [capture("stdout"), capture("stderr")];
  try {
    const code = await main(argv);
    return { code, ...output };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

/** A refused input as a user sees it: exit 2 and one line naming the first field at fault. */
async function expectRefusedByMain(argv: string[], [first]: Problem[]): Promise<void> {
  const { code, stdout, stderr } = await runMain(argv);
  const context = `taillab run ${JSON.stringify(argv)} → ${JSON.stringify(stderr)}`;
  expect({ code, stdout }, context).toEqual({ code: 2, stdout: "" });
  expect(stderr.split("\n"), context).toHaveLength(2);
  expect(stderr.endsWith("\n"), context).toBe(true);
  expect(stderr, context).toContain(
    `taillab run: ${withoutControlCharacters(first?.field ?? "")}: `,
  );
  expect(stderr, context).not.toMatch(/\bat .*\.ts:\d+/);
  expect(await readdir(library).catch(() => []), context).toEqual([]);
}

/** Checks one input; answers whether it was refused. */
async function checkRunInput(argv: string[]): Promise<boolean> {
  const problems = await problemsOf(argv);
  if (problems === null) return false;
  await expectRefusedByMain(argv, problems);
  return true;
}

const specValue = fc.oneof(
  fc.anything({ stringUnit: "binary" }),
  fc.constantFrom(...WORDS),
  fc.array(fc.integer({ min: -3, max: 1e7 }), { maxLength: 6 }),
);
const specText = fc.oneof(
  fc
    .dictionary(
      fc.constantFrom(
        "clients",
        "samples",
        "objectSize",
        "bucket",
        "clinets",
        "verfy",
        "mode",
        "workload",
        "openLoop",
        "repeat",
        "points",
        "testbed",
        "hedge",
        "phases",
        "workers",
      ),
      specValue,
    )
    .map((spec) => JSON.stringify(spec)),
  fc.string({ unit: "binary" }),
  fc.json({ stringUnit: "binary" }).map((text) => `\uFEFF${text}`),
  fc.json({ stringUnit: "binary" }).map((text) => text.slice(0, Math.floor(text.length / 2))),
);

describe(`taillab run's input, generated: a spec or a one-line field error, never a crash (fuzz seed ${SEED})`, () => {
  let refused = 0;
  afterAll(() => {
    expect(refused).toBeGreaterThanOrEqual(1000);
  });

  it("command lines", async () => {
    await fc.assert(
      fc.asyncProperty(commandLine, async (argv) => {
        if (await checkRunInput(argv)) refused += 1;
      }),
      { numRuns: 800, seed: SEED },
    );
  });

  it("spec files, with flags over them", async () => {
    let file = 0;
    await fc.assert(
      fc.asyncProperty(specText, commandLine, async (text, argv) => {
        file += 1;
        const path = join(dir, `spec-${file}.json`);
        await writeFile(path, text);
        if (await checkRunInput(["--spec", path, ...argv])) refused += 1;
      }),
      { numRuns: 500, seed: SEED },
    );
  });
});

/** Every name under `folder`, for checking that a refused command made nothing. */
async function allNames(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true });
  return entries.map(String).sort();
}

/**
 * Paths a command writes to, generated: an existing file, a folder where a file is written, a
 * place under /proc or /sys, a folder whose parent is missing. Each is refused before anything
 * is made: exit 2, one line naming the flag, no stack trace, nothing created, no hang (Node's
 * recursive mkdir never settled under /proc).
 */
describe(`paths the commands write to, generated: refused in one line naming the flag (fuzz seed ${SEED})`, () => {
  let scratch = "";
  beforeAll(async () => {
    scratch = join(dir, "paths");
    await mkdir(scratch);
    await writeFile(join(scratch, "a-file"), "kept as it is");
  });
  const segment = fc.stringMatching(/^[a-z0-9._-]{1,12}$/).filter((word) => !/^\.+$/.test(word));
  const systemPath = fc
    .tuple(fc.constantFrom("/proc", "/proc/self", "/sys", "/sys/kernel"), segment)
    .map(([root, name]) => `${root}/taillab-${name}`);
  const missingParent = fc
    .tuple(segment, segment)
    .map(([missing, name]) => join(scratch, `missing-${missing}`, name));
  const existingFile = fc.constant("a-file").map((name) => join(scratch, name));
  const folderPath = fc.constant(".").map(() => scratch);
  const badFolder = fc.oneof(systemPath, missingParent, existingFile);
  const badFile = fc.oneof(systemPath, missingParent, folderPath);
  const RUN = ["run", "--clients", "1", "--samples", "1", "--size", "1KiB"];
  const commandWithPath = fc.oneof(
    badFolder.map((path) => ({ flag: "out", argv: [...RUN, "--out", path] })),
    badFolder.map((path) => ({ flag: "results", argv: [...RUN, "--results", path] })),
    badFolder.map((path) => ({ flag: "dir", argv: ["testbed", "--dir", path, "--port", "0"] })),
    badFile.map((path) => ({ flag: "out", argv: ["report", "run-x", "--out", path] })),
    badFolder.map((path) => ({ flag: "results", argv: ["runs", "list", "--results", path] })),
  );

  it("--out, --results and --dir", async () => {
    await fc.assert(
      fc.asyncProperty(commandWithPath, async ({ flag, argv }) => {
        const before = await allNames(dir);
        const { code, stdout, stderr } = await mainOf(argv);
        const context = `taillab ${JSON.stringify(argv)} → ${JSON.stringify(stderr)}`;
        expect({ code, stdout }, context).toEqual({ code: 2, stdout: "" });
        expect(stderr, context).toMatch(new RegExp(`^taillab \\S+: ${flag}: [^\\n]+\\n$`));
        expect(await allNames(dir), context).toEqual(before);
      }),
      { numRuns: 200, seed: SEED },
    );
  });

  it.each([
    [
      "a name longer than the library's 200 characters",
      [...RUN, "--name", "n".repeat(300)],
      "taillab run: name: can be at most 200 characters (got 300)\n",
    ],
    [
      "a distributed run's start-at whose barrier deadline is past",
      ["k8s", "manifest", "SPEC", "--shards", "2", "--start-at", "2020-01-01T00:00:00Z"],
      /^taillab k8s: start-at: 2020-01-01T00:00:00Z plus the barrier timeout \(300 s\) is already past: [^\n]+\n$/,
    ],
    [
      "no pods, refused before any kubeconfig is read",
      ["k8s", "run", "SPEC", "--shards", "0", "--kubeconfig", "/nonexistent/kubeconfig"],
      'taillab k8s: shards: expected a whole number of pods from 1, got "0"\n',
    ],
  ])("%s: exit 2, one line, nothing created", async (_, argv, said) => {
    const spec = join(scratch, "spec.json");
    await writeFile(
      spec,
      JSON.stringify({ clients: 1, samples: 1, objectSize: "1KiB", bucket: "loadgen" }),
    );
    const before = await allNames(dir);
    const { code, stdout, stderr } = await mainOf(
      argv.map((word) => (word === "SPEC" ? spec : word)),
    );
    expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
    if (typeof said === "string") expect(stderr).toBe(said);
    else expect(stderr).toMatch(said);
    expect(await allNames(dir)).toEqual(before);
  });
});
