import { HedgeOptionsSchema } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { parseArguments, UsageError } from "./cli-args.ts";
import { RUN_FLAGS, specFromFlags } from "./run-flags.ts";

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

describe("the run's flag help", () => {
  it("states the hedge budget the spec applies by default", () => {
    const { budgetPercent } = HedgeOptionsSchema.parse({});
    const flag = RUN_FLAGS.find((candidate) => candidate.name === "hedge-budget");
    expect(flag?.description).toContain(`(default ${budgetPercent}%)`);
  });
});
