import type { FieldError } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { parseRunSpec } from "./run-spec-parser.ts";

/**
 * Bad specs as users write them, each with the one field error it must end in: the field named,
 * and what was wrong with it. A spec refused here never starts a run nor creates anything.
 */

const minimal = { clients: 8, samples: 256, objectSize: "32KiB" };

function errorsOf(spec: unknown): FieldError[] {
  const parsed = parseRunSpec(spec);
  return parsed.ok ? [] : parsed.errors;
}

describe("a spec that S3 or TailLab cannot run is refused, naming the field", () => {
  it.each([
    ["192.168.1.1", 'bucket: "192.168.1.1" must not be shaped like an IP address'],
    ["a..b", 'bucket: "a..b" must not have two dots in a row'],
    ["a.-b", 'bucket: "a.-b" must not have a dot next to a hyphen'],
    ["xn--bucket", 'bucket: "xn--bucket" must not start with "xn--" (reserved by S3)'],
    ["sthree-lab", 'bucket: "sthree-lab" must not start with "sthree-" (reserved by S3)'],
    ["lab-s3alias", 'bucket: "lab-s3alias" must not end with "-s3alias" (reserved by S3)'],
    ["Loadgen", 'bucket: "Loadgen" may hold only lowercase letters, digits, dots and hyphens'],
    ["ab", 'bucket: "ab" has 2 characters; a bucket name has 3 to 63'],
  ])("bucket %j: refused (%s)", (bucket, expected) => {
    expect(errorsOf({ ...minimal, bucket }).map(line)).toEqual([expected]);
  });

  it.each([
    [{ clinets: 8 }, 'spec: unknown field "clinets" - did you mean "clients"?'],
    [{ verfy: true }, 'spec: unknown field "verfy" - did you mean "verify"?'],
    [
      { workload: { ops: "get:100", sise: "4KiB" } },
      'workload: unknown field "sise" - did you mean "sizes"?',
    ],
    [
      { openLoop: { rateHz: 10, durationMs: "1s", arrivls: "poisson" } },
      'openLoop: unknown field "arrivls" - did you mean "arrivals"?',
    ],
    [
      { testbed: { replicas: 2, seeed: 3 } },
      'testbed: unknown field "seeed" - did you mean "seed"?',
    ],
    [
      { endpoints: [{ url: "http://127.0.0.1:9000", adressing: "path" }] },
      'endpoints[0]: unknown field "adressing" - did you mean "addressing"?',
    ],
  ])("unknown field %j: refused with the nearest known one", (extra, expected) => {
    const spec = { ...minimal, ...extra };
    expect(errorsOf(spec).map(line)).toContain(expected);
  });

  it.each([
    [{ repeat: 1.5 }, "repeat: expected a whole number, got 1.5"],
    [{ repeat: "2" }, 'repeat: expected a number, got "2"'],
    [{ verify: "yes" }, 'verify: expected true or false, got "yes"'],
    [{ testbed: { seed: "abc" } }, "testbed.seed: expected a whole number"],
    [{ samples: undefined }, "samples: is required"],
  ])(
    "a value of the wrong type %j: says what was expected, not 'is required'",
    (extra, expected) => {
      expect(errorsOf({ ...minimal, ...extra }).map(line)).toEqual([expected]);
    },
  );

  it.each([
    [
      { clients: 1e9, samples: 1e9 },
      "clients: expected at most 100000 clients (each is a connection)",
    ],
    [
      {
        clients: 1,
        objectSize: "1KiB",
        samples: undefined,
        openLoop: { rateHz: "1000000000/s", durationMs: "1s" },
      },
      "openLoop.rateHz: expected at most 10000000 requests per second",
    ],
    [{ workers: 1e6 }, "workers: expected at most 1024 workers"],
  ])("a value beyond any machine %j: refused", (extra, expected) => {
    expect(errorsOf({ ...minimal, ...extra }).map(line)).toEqual([expected]);
  });

  it.each([
    [
      { url: "http://127.0.0.1:9000", addressing: "virtual-host" },
      'endpoints[0].addressing: virtual-host addressing needs a host name, and 127.0.0.1 is an IP address (the bucket would be asked for as "<bucket>.127.0.0.1"); use path addressing, or a name for the server',
    ],
    [
      { url: "http://[::1]:9000", addressing: "virtual-host" },
      'endpoints[0].addressing: virtual-host addressing needs a host name, and [::1] is an IP address (the bucket would be asked for as "<bucket>.[::1]"); use path addressing, or a name for the server',
    ],
    [
      { url: "http://127.0.0.1:9000", caFile: "lab-ca.pem" },
      "endpoints[0].caFile: is for https:// endpoints; http://127.0.0.1:9000 does not use TLS",
    ],
    [
      { url: "http://127.0.0.1:9000", insecure: true },
      "endpoints[0].insecure: is for https:// endpoints; http://127.0.0.1:9000 does not use TLS",
    ],
    [
      { url: "https://lab.example:9000", caFile: "lab-ca.pem", insecure: true },
      "endpoints[0].insecure: give a CA file to trust or insecure (no verification), not both",
    ],
    [{ url: "http://127.0.0.1:9000" }, null],
    [{ url: "http://localhost:9000", addressing: "virtual-host" }, null],
    [{ url: "https://lab.example:9000", caFile: "lab-ca.pem" }, null],
  ])(
    "endpoint %j: addressing and TLS that its URL can honour, or a field error",
    (endpoint, expected) => {
      const errors = errorsOf({ ...minimal, endpoints: [endpoint] }).map(line);
      expect(errors).toEqual(expected === null ? [] : [expected]);
    },
  );

  it.each([
    [{ requestTimeoutMs: "2s" }, null],
    [{ requestTimeoutMs: 0 }, "requestTimeoutMs: expected a duration from 1ms to 60min"],
    [{ requestTimeoutMs: "2h" }, "requestTimeoutMs: expected a duration from 1ms to 60min"],
    [
      { requestTimeoutMs: "soon" },
      `requestTimeoutMs: "soon" is not a duration; expected a duration like 30s, 500ms, 2m, 1.5s or 250us`,
    ],
  ])("request timeout %j: a duration from 1 ms to an hour", (extra, expected) => {
    const errors = errorsOf({ ...minimal, ...extra }).map(line);
    expect(errors).toEqual(expected === null ? [] : [expected]);
  });

  it("70 000 sweep points (over the results store's 65 536): refused, naming the lists", () => {
    const spec = {
      ...minimal,
      clients: Array.from({ length: 7 }, (_, i) => i + 1),
      samples: 1000,
      objectSize: Array.from({ length: 10_000 }, (_, i) => i + 1),
    };
    expect(errorsOf(spec).map(line)).toEqual([
      "spec: clients × objectSize × samples make 70000 run points; a run holds at most 65536: split the sweep into several runs",
    ]);
  });

  it("a list of 130 000 values: a field error, not a stack overflow", () => {
    const samples = Array.from({ length: 130_000 }, (_, index) => index + 8);
    expect(errorsOf({ ...minimal, samples }).map(line)).toEqual([
      "spec: clients × objectSize × samples make 130000 run points; a run holds at most 65536: split the sweep into several runs",
    ]);
  });

  it("a list of 130 000 bad values: the first five named, the others counted", () => {
    const clients = Array.from({ length: 130_000 }, () => 0);
    expect(errorsOf({ ...minimal, clients }).map(line)).toEqual([
      ...[0, 1, 2, 3, 4].map((index) => `clients[${index}]: expected at least 1 client`),
      "clients: 129995 more values are wrong in the same way or another",
    ]);
  });

  it("a long list within the limits: accepted (no spread into Math.max)", () => {
    const samples = Array.from({ length: 60_000 }, (_, index) => index + 8);
    expect(parseRunSpec({ ...minimal, samples }).ok).toBe(true);
  });

  it("hedged mode with one replica: accepted (backups then share the one replica)", () => {
    expect(parseRunSpec({ ...minimal, mode: "hedged", testbed: { replicas: 1 } }).ok).toBe(true);
  });
});

function line({ field, message }: FieldError): string {
  return `${field}: ${message}`;
}
