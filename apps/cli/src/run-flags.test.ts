import { HedgeOptionsSchema, runSpecFieldDefault, RunSpecSchema } from "@taillab/api";
import { describe, expect, it } from "vitest";
import {
  flagDefault,
  formatFlagHelp,
  parseArguments,
  UsageError,
  type FlagDefinition,
} from "./cli-args.ts";
import { RUN_HELP } from "./run-command.ts";
import { TESTBED_FLAGS, TESTBED_HELP } from "./testbed-command.ts";
import { flagOfField, RUN_FLAGS, specFromFlags } from "./run-flags.ts";

const specOf = (argv: string[], fileSpec: Record<string, unknown> = {}) =>
  specFromFlags(parseArguments(argv, RUN_FLAGS).flags, fileSpec);

describe("the run's endpoint flags", () => {
  it.each([
    [["--region", "eu-west-1"], "region"],
    [["--addressing", "virtual"], "addressing"],
    [["--ca-file", "/tmp/ca.pem"], "ca-file"],
    [["--insecure"], "insecure"],
    [["--access-key", "AK", "--secret-key", "SK"], "access-key"],
  ])("%j without --endpoint is refused, naming the flag", (argv, flag) => {
    expect(() => specOf(argv)).toThrow(UsageError);
    expect(() => specOf(argv)).toThrow(
      `--${flag} describes the endpoint --endpoint URL names; without --endpoint the embedded testbed is started, which takes none`,
    );
  });

  it("describe the endpoint a spec file or --replicas names", () => {
    const fileSpec = { endpoints: [{ url: "http://127.0.0.1:9000" }] };
    expect(specOf(["--region", "eu-west-1"], fileSpec).endpoints).toEqual([
      { url: "http://127.0.0.1:9000", region: "eu-west-1" },
    ]);
    expect(specOf(["--insecure", "--replicas", "https://a:1,https://b:2"]).endpoints).toEqual([
      { url: "https://a:1", insecure: true },
      { url: "https://b:2", insecure: true },
    ]);
  });

  it("none at all leave the endpoints to the embedded testbed", () => {
    expect(specOf(["--clients", "2"]).endpoints).toBeUndefined();
  });
});

describe("the run's flag table", () => {
  const placed = RUN_FLAGS.flatMap((flag) =>
    "spec" in flag && !("placedByCommand" in flag.spec) ? [[flag.name, flag] as const] : [],
  );

  /** What a flag of a section needs beside it to be taken. */
  const NEEDED: Record<string, string[]> = {
    endpoints: ["--endpoint", "http://127.0.0.1:9000"],
    untilSteady: ["--until-steady"],
  };

  it.each(placed)("--%s sets its entry's spec field, nothing else", (name, flag) => {
    const [field = "", key] = flag.spec.field.split(".");
    const needed = NEEDED[field] ?? [];
    const given = flag.takesValue ? [`--${name}`, "7"] : [`--${name}`];
    const convert = "convert" in flag.spec ? flag.spec.convert : (text: string) => text;
    const expected = flag.takesValue ? convert("7") : true;
    const without = specOf(needed) as Record<string, unknown>;
    const sectionOf = (value: unknown) => ({
      ...(Array.isArray(value) ? value[0] : value),
      [key ?? ""]: expected,
    });
    expect(specOf([...given, ...needed])).toEqual({
      ...without,
      [field]:
        key === undefined
          ? expected
          : field === "endpoints"
            ? [sectionOf(without.endpoints)]
            : sectionOf(without[field]),
    });
  });
});

describe("a field at fault names the flag that set it", () => {
  const flagOf = (field: string, argv: string[]) =>
    flagOfField(field, parseArguments(argv, RUN_FLAGS).flags);

  it.each([
    ["openLoop.rateHz", ["--rate", "1e12/s"], "rate"],
    ["objectSize[2]", ["-objectSize", "1,2,x"], "size"],
    ["endpoints[1].caFile", ["--ca-file", "ca.pem"], "ca-file"],
    ["keyPrefix", ["--prefix", "/a"], "prefix"],
    ["phases", ["--skip-cleanup"], "skip-cleanup"],
    ["untilSteady.percentile", ["--until-steady", "--steady-percentile", "x"], "steady-percentile"],
    ["untilSteady", ["--until-steady"], "until-steady"],
    [
      "testbed.profile.noisyNeighbour.replica",
      ["--testbed-profile", "noisy-neighbour"],
      "testbed-profile",
    ],
  ])("%s set by %j: --%s", (field, argv, flag) => {
    expect(flagOf(field, argv)).toBe(flag);
  });

  it.each([
    ["clients", ["--clients", "0"]],
    ["phases", ["--phases", "read", "--skip-cleanup"]],
    ["openLoop.rateHz", ["--clients", "1"]],
    ["spec", ["--rate", "5/s"]],
  ])("%s with %j: none (named as its flag, or no flag given set it)", (field, argv) => {
    expect(flagOf(field, argv)).toBeUndefined();
  });
});

describe("the run's flag help", () => {
  const flags: readonly FlagDefinition[] = RUN_FLAGS;
  const helpLine = (name: string) =>
    RUN_HELP.split("\n").find(
      (line) => line.startsWith(`  --${name} `) || line.startsWith(`  --${name},`),
    );

  it("states the hedge budget the spec applies by default", () => {
    const { budgetPercent } = HedgeOptionsSchema.parse({});
    expect(helpLine("hedge-budget")).toContain(`(default ${budgetPercent}%)`);
  });

  it.each(flags.map((flag) => [flag.name, flag] as const))(
    "--%s is in the help, with its spec field's default",
    (name, flag) => {
      const line = helpLine(name);
      expect(line).toBeDefined();
      expect(line).toContain(flag.description);
      const shown = flagDefault(flag);
      if (shown !== undefined) expect(line?.endsWith(`(default ${shown})`)).toBe(true);
      expect(line?.match(/\(default /g)?.length ?? 0).toBeLessThanOrEqual(1);
    },
  );

  /** Enough of a spec that a flag's field validates: the section it sits in must be there. */
  const BASE_ARGS: Record<string, string[]> = {
    endpoints: ["--endpoint", "http://127.0.0.1:9000"],
    workload: ["--ops", "get:100"],
    openLoop: ["--rate", "10/s"],
    untilSteady: ["--until-steady"],
  };
  const fieldOf = (spec: Record<string, unknown>, field: string): unknown =>
    field
      .split(".")
      .reduce<unknown>(
        (value, key) =>
          key === "endpoints"
            ? (value as { endpoints: unknown[] }).endpoints[0]
            : (value as Record<string, unknown>)[key],
        spec,
      );
  const withDefaults = flags.flatMap((flag) => {
    const shown = flagDefault(flag);
    return flag.spec && shown !== undefined ? [[flag.name, shown, flag.spec.field] as const] : [];
  });

  it("shows a default for each flag whose field has one", () => {
    const fieldsWithDefaults = flags.filter(
      (flag) => flag.takesValue && flag.spec && runSpecFieldDefault(flag.spec.field) !== undefined,
    );
    expect(withDefaults.map(([name]) => name)).toEqual(fieldsWithDefaults.map((flag) => flag.name));
    expect(withDefaults.length).toBeGreaterThan(20);
  });

  it.each(withDefaults)(
    "--%s %s, as the help writes it, gives %s the value the schema gives it unwritten",
    (name, shown, field) => {
      const section = field.split(".")[0] ?? "";
      const base = [
        "--clients",
        "1",
        "--samples",
        "1",
        "--size",
        "1KiB",
        ...(BASE_ARGS[section] ?? []),
      ];
      const parse = (argv: string[]) =>
        RunSpecSchema.parse(specFromFlags(parseArguments(argv, RUN_FLAGS).flags, {}));
      const unwritten = fieldOf(parse(base), field);
      expect(unwritten).toEqual(runSpecFieldDefault(field));
      expect(fieldOf(parse([...base, `--${name}`, shown]), field)).toEqual(unwritten);
    },
  );

  it.each([
    ["run", RUN_FLAGS, RUN_HELP],
    ["testbed", TESTBED_FLAGS, TESTBED_HELP],
  ] as const)(
    "taillab %s: no description writes a default beside the schema's, which its help shows",
    (_command, table: readonly FlagDefinition[], help) => {
      const withSchemaDefault = table.filter((flag) => flagDefault(flag) !== undefined);
      expect(withSchemaDefault.length).toBeGreaterThan(0);
      const restating = withSchemaDefault.filter((flag) => /default/i.test(flag.description));
      expect(restating.map((flag) => flag.name)).toEqual([]);
      for (const flag of withSchemaDefault) {
        expect(help).toContain(`${flag.description} (default ${flagDefault(flag)})`);
      }
    },
  );

  it("a flag's help line is its names, what it does and the schema's default", () => {
    const flag: FlagDefinition = {
      name: "request-timeout",
      aliases: [],
      takesValue: true,
      description: "give up",
      spec: { field: "requestTimeoutMs", writeDefault: (ms: number) => `${ms / 1000}s` },
    };
    expect(formatFlagHelp([flag])).toBe("  --request-timeout VALUE  give up (default 60s)");
  });
});
