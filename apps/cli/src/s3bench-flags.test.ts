import { describe, expect, it } from "vitest";
import { parseArguments, parseFlags } from "./cli-args.ts";
import { RUN_FLAGS, specFromFlags, writtenAsS3bench } from "./run-flags.ts";

/** Every flag s3bench defines (s3bench.go lines 31–41), with a value of the kind it takes. */
const S3BENCH_FLAGS: readonly (readonly [string, string | null])[] = [
  ["endpoint", "http://a:9000,http://b:9000"],
  ["region", "us-west-2"],
  ["accessKey", "KEY"],
  ["accessSecret", "SECRET"],
  ["bucket", "bench"],
  ["objectNamePrefix", "loadgen_test_"],
  ["objectSize", "1024"],
  ["numClients", "4"],
  ["numSamples", "40"],
  ["skipCleanup", null],
  ["verbose", null],
];

/** The ways Go's flag package takes a flag: -f=v, -f v, --f=v, --f v; a bool alone or =value. */
function goForms(name: string, value: string | null): string[][] {
  if (value === null) return [[`-${name}`], [`--${name}`], [`-${name}=true`], [`-${name}=1`]];
  return [[`-${name}=${value}`], [`-${name}`, value], [`--${name}=${value}`], [`--${name}`, value]];
}

describe("s3bench's flags", () => {
  it.each(S3BENCH_FLAGS)("-%s is accepted in every form Go's flag package takes", (name, value) => {
    for (const argv of goForms(name, value)) {
      expect(() => parseFlags(argv, RUN_FLAGS)).not.toThrow();
      expect(writtenAsS3bench(parseArguments(argv, RUN_FLAGS).written)).toBe(
        // --endpoint, --region and --bucket are TailLab's own long forms too.
        !(argv[0]?.startsWith("--") && ["endpoint", "region", "bucket"].includes(name)),
      );
    }
  });

  it("make the spec s3bench's command line describes", () => {
    const argv = S3BENCH_FLAGS.flatMap(([name, value]) =>
      value === null ? [`-${name}`] : [`-${name}`, value],
    );
    const flags = parseFlags(argv, RUN_FLAGS);
    expect(flags.verbose).toBe(true);
    expect(specFromFlags(flags, {})).toEqual({
      endpoints: ["http://a:9000", "http://b:9000"].map((url) => ({
        url,
        region: "us-west-2",
        credentials: {
          kind: "env",
          accessKeyIdVar: "CLI_ACCESS_KEY_ID",
          secretAccessKeyVar: "CLI_SECRET_ACCESS_KEY",
        },
      })),
      bucket: "bench",
      keyPrefix: "loadgen_test_",
      objectSize: "1024",
      clients: 4,
      samples: 40,
      phases: ["write", "read"],
    });
  });

  it("take Go's false values for a bool", () => {
    for (const value of ["false", "0", "f", "F", "FALSE"]) {
      const flags = parseFlags([`-skipCleanup=${value}`, `-verbose=${value}`], RUN_FLAGS);
      expect(flags["skip-cleanup"]).toBeUndefined();
      expect(flags.verbose).toBeUndefined();
    }
    expect(() => parseFlags(["-verbose=yes"], RUN_FLAGS)).toThrow('"-verbose=yes" takes no value');
  });

  it.each([
    [["--endpoint", "http://a", "--clients", "2"], false],
    [["-endpoint", "http://a", "--clients", "2"], true],
    [["--numClients", "2"], true],
    [["-clients", "2"], false],
    // Go's flags are case-sensitive: TailLab takes -numclients, s3bench would not.
    [["-numclients", "2"], false],
  ])("%j is written as s3bench's: %s", (argv, expected) => {
    expect(writtenAsS3bench(parseArguments(argv, RUN_FLAGS).written)).toBe(expected);
  });
});
