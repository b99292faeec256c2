import { InputError } from "@taillab/api";
import { validateRunSpec } from "@taillab/backend";
import fc from "fast-check";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseFlags, UsageError } from "./cli-args.ts";
import { readSpecFlag } from "./run-command.ts";
import { RUN_FLAGS, specFromFlags } from "./run-flags.ts";

/**
 * `taillab run`'s input, generated: command lines and spec files through the same steps the
 * command takes before it runs anything (flags, spec file, validation). Whatever comes in, the
 * answer is a spec or a field error main prints on one line with exit 2; never another
 * exception. Most generated inputs are bad, and at least a thousand bad ones are tried a run.
 */

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "taillab-cli-fuzz-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const FLAG_NAMES = RUN_FLAGS.filter(
  (flag) => !["help", "spec", "out", "results"].includes(flag.name),
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
  fc.string({ maxLength: 12 }),
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
  fc.string({ minLength: 1, maxLength: 10 }).map((word) => [`--${word}`]),
  value.map((word) => [word]),
);
const commandLine = fc.array(flag, { maxLength: 8 }).map((parts) => parts.flat());

/** What `taillab run` does with a command line before it runs anything. */
async function checkRunInput(argv: string[]): Promise<"ok" | "refused"> {
  try {
    const flags = parseFlags(argv, RUN_FLAGS);
    validateRunSpec(specFromFlags(flags, await readSpecFlag(flags)));
    return "ok";
  } catch (error) {
    const problems =
      error instanceof InputError ? error.problems : error instanceof UsageError ? [error] : null;
    if (problems === null) throw error;
    expect(problems.length).toBeGreaterThan(0);
    for (const { field, message } of problems) {
      expect(field).toMatch(/\S/);
      expect(message).toMatch(/\S/);
    }
    return "refused";
  }
}

const specValue = fc.oneof(
  fc.anything(),
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
  fc.string(),
  fc.json().map((text) => `\uFEFF${text}`),
  fc.json().map((text) => text.slice(0, Math.floor(text.length / 2))),
);

describe("taillab run's input, generated: a spec or a one-line field error, never a crash", () => {
  let refused = 0;
  afterAll(() => {
    expect(refused).toBeGreaterThanOrEqual(1000);
  });

  it("command lines", async () => {
    await fc.assert(
      fc.asyncProperty(commandLine, async (argv) => {
        if ((await checkRunInput(argv)) === "refused") refused += 1;
      }),
      { numRuns: 800, seed: 20261125 },
    );
  });

  it("spec files, with flags over them", async () => {
    let file = 0;
    await fc.assert(
      fc.asyncProperty(specText, commandLine, async (text, argv) => {
        file += 1;
        const path = join(dir, `spec-${file}.json`);
        await writeFile(path, text);
        if ((await checkRunInput(["--spec", path, ...argv])) === "refused") refused += 1;
      }),
      { numRuns: 500, seed: 20261125 },
    );
  });
});
