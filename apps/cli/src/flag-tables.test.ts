import { InputError } from "@taillab/api";
import { describe, expect, it } from "vitest";
import {
  flagDefault,
  flagNamed,
  flagValue,
  parseArguments,
  parseFlags,
  type FlagDefinition,
} from "./cli-args.ts";
import { CLEANUP_FLAGS, CLEANUP_HELP } from "./cleanup-command.ts";
import { COMPARE_MODES_FLAGS, COMPARE_MODES_HELP } from "./compare-modes-command.ts";
import { K8S_FLAGS, K8S_HELP, k8sSettingsOf } from "./k8s-command.ts";
import { MERGE_FLAGS, MERGE_HELP } from "./merge-command.ts";
import { PRESETS_FLAGS, PRESETS_HELP } from "./presets-command.ts";
import { COMPARE_FLAGS, COMPARE_HELP, REPORT_FLAGS, REPORT_HELP } from "./report-command.ts";
import { checkedRunInput, RUN_HELP } from "./run-command.ts";
import { namingFlags, RUN_FLAGS } from "./run-flags.ts";
import { RUNS_FLAGS, RUNS_HELP } from "./runs-command.ts";
import { TESTBED_FLAGS, TESTBED_HELP } from "./testbed-command.ts";

/** Every command's flag table and the help that lists it. */
const COMMANDS: [string, readonly FlagDefinition[], string][] = [
  ["run", RUN_FLAGS, RUN_HELP],
  ["compare-modes", COMPARE_MODES_FLAGS, COMPARE_MODES_HELP],
  ["presets", PRESETS_FLAGS, PRESETS_HELP],
  ["runs", RUNS_FLAGS, RUNS_HELP],
  ["cleanup", CLEANUP_FLAGS, CLEANUP_HELP],
  ["report", REPORT_FLAGS, REPORT_HELP],
  ["compare", COMPARE_FLAGS, COMPARE_HELP],
  ["testbed", TESTBED_FLAGS, TESTBED_HELP],
  ["merge", MERGE_FLAGS, MERGE_HELP],
  ["k8s", K8S_FLAGS, K8S_HELP],
];

const EVERY_FLAG = COMMANDS.flatMap(([command, table, help]) =>
  table.map((flag) => [command, flag.name, flag, table, help] as const),
);

/** The help line of --name (or -h) in a command's help. */
function helpLine(help: string, name: string): string | undefined {
  const written = name.length > 1 ? `--${name}` : `-${name}`;
  return help
    .split("\n")
    .find((line) => line.startsWith(`  ${written} `) || line.startsWith(`  ${written},`));
}

describe("every command's help", () => {
  it.each(EVERY_FLAG)(
    "taillab %s --%s: its line, ending with the default its entry gives",
    (_command, name, flag, _table, help) => {
      const line = helpLine(help, name);
      expect(line).toBeDefined();
      expect(line).toContain(flag.description);
      const shown = flagDefault(flag);
      if (shown !== undefined) {
        const variable = flag.value?.variable;
        const said = variable === undefined ? ` ${shown}` : `: $${variable}, else ${shown}`;
        expect(line?.endsWith(`(default${said})`)).toBe(true);
      }
      // A default written by hand in a description could drift from the one applied.
      expect(flag.description).not.toMatch(/\(default[ )][^:]/);
    },
  );

  const valued = EVERY_FLAG.filter(([, , flag]) => flag.value !== undefined);

  it("covers the defaults that are no spec field's", () => {
    expect(valued.map(([command, name]) => `${command} --${name}`)).toEqual(
      expect.arrayContaining([
        "run --scale",
        "run --barrier-timeout",
        "compare-modes --modes",
        "report --format",
        "report --language",
        "report --baseline",
        "compare --baseline",
        "testbed --host",
        "testbed --port",
        "k8s --barrier-timeout",
        "k8s --active-deadline",
        "k8s --ttl",
        "k8s --image",
        "k8s --spread",
      ]),
    );
  });

  it.each(valued)(
    "taillab %s: no --%s applies what the help shows, read as the flag",
    (_command, name, flag, table) => {
      const unwritten = flagValue(table, {}, name, {});
      const shown = flagDefault(flag);
      if (shown === undefined) {
        expect([undefined, ""]).toContain(unwritten);
        return;
      }
      const written = parseFlags([`--${name}`, shown], table);
      expect(flagValue(table, written, name, {})).toEqual(unwritten);
    },
  );
});

describe("taillab k8s settings from its table", () => {
  const settingAt = (settings: object, setting: string): unknown =>
    setting
      .split(".")
      .reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], settings);
  const withSetting = K8S_FLAGS.filter((flag) => "setting" in flag);

  it.each(withSetting.map((flag) => [flag.name, flag] as const))(
    "--%s: placed at its setting; written as the help shows its default, the same settings",
    (name, flag) => {
      const unwritten = k8sSettingsOf({}, {});
      const shown = flagDefault(flag);
      if (flag.takesValue && shown !== undefined) {
        expect(k8sSettingsOf(parseFlags([`--${name}`, shown], K8S_FLAGS), {})).toEqual(unwritten);
      }
      const given = flag.takesValue ? [`--${name}`, "7s"] : [`--${name}`];
      const set = settingAt(k8sSettingsOf(parseFlags(given, K8S_FLAGS), {}), flag.setting);
      expect(set).toEqual(flag.takesValue ? flag.value.parse("7s", name) : true);
    },
  );

  it("--image: the flag, else $TAILLAB_IMAGE, else the default the help shows", () => {
    const image = (argv: string[], env: Record<string, string>) =>
      k8sSettingsOf(parseFlags(argv, K8S_FLAGS), env).image;
    expect(image([], {})).toBe(flagDefault(flagNamed(K8S_FLAGS, "image")));
    expect(image([], { TAILLAB_IMAGE: "lab/taillab:1" })).toBe("lab/taillab:1");
    expect(image(["--image", "mine:2"], { TAILLAB_IMAGE: "lab/taillab:1" })).toBe("mine:2");
  });
});

describe("a converted field's error names the flag typed", () => {
  const BASE = ["--clients", "1", "--samples", "1", "--size", "1KiB"];
  /** What a section's flags need beside them to be taken. */
  const NEEDED: Record<string, string[]> = {
    workload: ["--ops", "get:100"],
    openLoop: ["--rate", "10/s"],
    untilSteady: ["--until-steady"],
  };
  const converted = RUN_FLAGS.flatMap((flag) => {
    if (!("spec" in flag) || !flag.takesValue) return [];
    const spec: { field: string; otherFields?: readonly string[] } = flag.spec;
    const conversion =
      "convert" in flag.spec ||
      "writeDefault" in flag.spec ||
      /(Ms|Bytes|Hz|Percent)$/.test(spec.field);
    if (!conversion) return [];
    return [spec.field, ...(spec.otherFields ?? [])].map((field) => [field, flag.name] as const);
  });

  it("covers every converted field, both of --duration's among them", () => {
    expect(converted).toEqual(
      expect.arrayContaining([
        ["openLoop.durationMs", "duration"],
        ["workload.durationMs", "duration"],
        ["requestTimeoutMs", "request-timeout"],
        ["workload.totalBytes", "total-bytes"],
        ["workload.multipartPartBytes", "multipart-part"],
      ]),
    );
  });

  it.each(converted)("%s: x given as --%s", async (field, name) => {
    const needed = NEEDED[field.split(".")[0] ?? ""] ?? [];
    const argv = [...BASE, ...needed.filter((word) => word !== `--${name}`), `--${name}`, "x"];
    const { flags, written, repeated } = parseArguments(argv, RUN_FLAGS);
    const refused = await namingFlags(flags, () => checkedRunInput(flags, written, repeated)).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(InputError);
    const problem = (refused as InputError).problems.find(
      (each) => each.field.replace(/\[\d+\]/g, "") === field,
    );
    expect(problem, `no problem of ${field}`).toBeDefined();
    // A field named as its flag (clients, phases) names it already.
    const named =
      problem?.field.replace(/\[\d+\]/g, "") === name ||
      problem?.message.endsWith(`(from --${name})`);
    expect(named, `${problem?.field}: ${problem?.message}`).toBe(true);
  });
});
