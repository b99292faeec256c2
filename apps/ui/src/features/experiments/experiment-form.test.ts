import { describe, expect, it } from "vitest";
import {
  experimentToForm,
  formToDraft,
  mapExperimentErrors,
  newExperimentForm,
  type ExperimentForm,
} from "./experiment-form.ts";

const form = (changes: Partial<ExperimentForm> = {}): ExperimentForm => ({
  ...newExperimentForm("e1"),
  name: "Sweep",
  ...changes,
});

const specOf = (
  changes: Partial<ExperimentForm>,
  base: Record<string, unknown> = {},
  testbed = false,
) => formToDraft(form(changes), base, { testbed }).spec;

describe("form → draft", () => {
  it("sends lists as typed, numbers as numbers and sizes with their units", () => {
    const spec = specOf({ clients: "1, 4, 8", samples: "256", sizes: "4KiB, 1MiB, 1048576" });
    expect(spec).toMatchObject({
      clients: [1, 4, 8],
      samples: [256],
      objectSize: ["4KiB", "1MiB", "1048576"],
      phases: ["write", "read", "cleanup"],
      mode: "normal",
      repeat: 1,
      verify: false,
    });
  });

  it("passes a mistyped value on as typed, for the backend to name it", () => {
    expect(specOf({ clients: "4, four" }).clients).toEqual([4, "four"]);
  });

  it("keeps the phases in run order", () => {
    expect(specOf({ phases: { write: true, read: false, cleanup: true } }).phases).toEqual([
      "write",
      "cleanup",
    ]);
  });

  it("drops samples for an open loop with a duration, which sends rate × duration", () => {
    const spec = specOf({ loop: "open", rate: "500/s", arrivals: "poisson", duration: "30s" });
    expect(spec.openLoop).toEqual({ rateHz: "500/s", arrivals: "poisson", durationMs: "30s" });
    expect(spec).not.toHaveProperty("samples");
    expect(specOf({ loop: "open", rate: "200", duration: "" }).openLoop).toEqual({
      rateHz: 200,
      arrivals: "fixed",
    });
  });

  it("sends an open loop until stopped without samples or duration, and keeps it on reading back", () => {
    const spec = specOf(
      { loop: "open", rate: "400/s", untilStopped: true, duration: "30s" },
      { workload: { ops: "get:100" } },
    );
    expect(spec.openLoop).toEqual({ rateHz: "400/s", arrivals: "fixed", untilStopped: true });
    expect(spec).not.toHaveProperty("samples");
    const back = experimentToForm({ name: "Live", endpointId: "testbed", spec });
    expect(back).toMatchObject({ loop: "open", untilStopped: true, duration: "" });
    // Unticked, the open loop has an end again.
    expect(specOf({ loop: "open", untilStopped: false }, spec).openLoop).not.toHaveProperty(
      "untilStopped",
    );
  });

  it("writes the hedge options only when a mode sends backups", () => {
    expect(specOf({ mode: "normal" })).not.toHaveProperty("hedge");
    expect(
      specOf({ mode: "hedged", hedgeDelayKind: "fixed", hedgeDelayMs: "30", budgetPercent: "5" })
        .hedge,
    ).toEqual({
      delay: "30ms",
      budgetPercent: 5,
      tiedDelayMs: 0,
    });
    expect(specOf({ mode: "adaptive", hedgePercentile: "99.9" }).hedge).toMatchObject({
      delay: "p99.9",
    });
  });

  it("runs once per checked mode, in a fixed order", () => {
    const draft = formToDraft(
      form({ compareModes: true, modes: ["tied", "normal"] }),
      {},
      { testbed: false },
    );
    expect(draft.modes).toEqual(["normal", "tied"]);
    expect(draft.spec.hedge).toBeDefined();
    expect(formToDraft(form(), {}, { testbed: false })).not.toHaveProperty("modes");
  });

  it("replaces the phases with a mixed workload", () => {
    const spec = specOf({
      useWorkload: true,
      workloadOps: "get:70,put:30",
      workloadKeys: "zipf:1.1",
      workloadSizes: "",
    });
    expect(spec).not.toHaveProperty("phases");
    expect(spec.workload).toEqual({ ops: "get:70,put:30", keys: "zipf:1.1", prepareObjects: 1000 });
  });

  it("sends the CLI's request and workload settings as typed, and leaves the empty ones to the defaults", () => {
    const spec = specOf(
      {
        useWorkload: true,
        workloadOps: "get:90,multipart:10",
        workloadRange: "random:64KiB",
        workloadWarmup: "5s",
        workloadDuration: "30s",
        workloadTotalBytes: "1GiB",
        multipartPartSize: "5MiB",
        multipartPartsInFlight: "2",
        keyPrefix: "lab7",
        transport: "sdk",
        requestTimeout: "2min",
      },
      { keyPrefix: "old", transport: "fast", requestTimeoutMs: 1000 },
    );
    expect(spec).toMatchObject({ keyPrefix: "lab7", transport: "sdk", requestTimeoutMs: "2min" });
    expect(spec.workload).toMatchObject({
      range: "random:64KiB",
      warmupMs: "5s",
      durationMs: "30s",
      totalBytes: "1GiB",
      multipartPartBytes: "5MiB",
      multipartPartsInFlight: 2,
    });
    const defaults = specOf({ useWorkload: true }, { keyPrefix: "old", requestTimeoutMs: 1000 });
    expect(defaults).not.toHaveProperty("keyPrefix");
    expect(defaults).not.toHaveProperty("requestTimeoutMs");
    expect(defaults).not.toHaveProperty("transport");
    expect(defaults.workload).toEqual({
      ops: "get:70,put:30",
      keys: "uniform",
      prepareObjects: 1000,
    });
  });

  it("reads a CLI run's settings back into the boxes", () => {
    const read = experimentToForm({
      name: "from the CLI",
      endpointId: "e1",
      spec: {
        clients: [4],
        objectSize: [8 * 1024 * 1024],
        keyPrefix: "lab7",
        transport: "sdk",
        requestTimeoutMs: 120_000,
        workload: {
          ops: "get:100",
          range: "fixed:0:1MiB",
          warmupMs: 5000,
          durationMs: 30_000,
          totalBytes: 1024 ** 3,
          multipartPartBytes: 5 * 1024 * 1024,
          multipartPartsInFlight: 2,
        },
      },
    });
    expect(read).toMatchObject({
      keyPrefix: "lab7",
      transport: "sdk",
      requestTimeout: "120s",
      workloadRange: "fixed:0:1MiB",
      workloadWarmup: "5s",
      workloadDuration: "30s",
      workloadTotalBytes: "1GiB",
      multipartPartSize: "5MiB",
      multipartPartsInFlight: "2",
    });
  });

  it("reads explicit points, one a line", () => {
    expect(specOf({ points: "1 × 512 × 8KiB\n1, 256, 16KiB\n\n2 x 2 x 2MiB" }).points).toEqual([
      { clients: 1, samples: 512, objectSize: "8KiB" },
      { clients: 1, samples: 256, objectSize: "16KiB" },
      { clients: 2, samples: 2, objectSize: "2MiB" },
    ]);
  });

  it("overrides the testbed only for a testbed endpoint, and only what was given", () => {
    expect(specOf({ testbedReplicas: "2" }, {}, true).testbed).toEqual({ replicas: 2 });
    expect(specOf({}, {}, true)).not.toHaveProperty("testbed");
    expect(specOf({ testbedReplicas: "2" }, {}, false)).not.toHaveProperty("testbed");
  });

  it("keeps the fields the builder has no box for", () => {
    const base = { hedge: { minSamples: 50 }, workers: 2, createBucket: true };
    const spec = specOf({ mode: "hedged" }, base);
    expect(spec).toMatchObject({ workers: 2, createBucket: true });
    expect(spec.hedge).toMatchObject({ minSamples: 50, delay: "p95" });
  });
});

describe("experiment → form", () => {
  it("shows a spec's values as a user would type them", () => {
    const shown = experimentToForm({
      name: "Tail lab",
      endpointId: "e1",
      modes: ["normal", "hedged"],
      spec: {
        clients: 8,
        samples: [256, 1024],
        objectSize: [32768, "1MiB"],
        phases: ["write", "read"],
        openLoop: { rateHz: 500, durationMs: 30000 },
        mode: "hedged",
        hedge: { delay: "30ms", budgetPercent: "5%", tiedDelayMs: 2 },
        replicaChoice: "least-outstanding",
        repeat: 5,
        thresholds: ["GET p99.9<50ms@ci", "errors<0.1%"],
        verify: true,
        points: [{ clients: 1, samples: 512, objectSize: 8192 }],
        testbed: { replicas: 3, profile: "stalls" },
      },
    });
    expect(shown).toMatchObject({
      name: "Tail lab",
      clients: "8",
      samples: "256, 1024",
      sizes: "32KiB, 1MiB",
      phases: { write: true, read: true, cleanup: false },
      loop: "open",
      rate: "500/s",
      duration: "30s",
      mode: "hedged",
      compareModes: true,
      modes: ["normal", "hedged"],
      hedgeDelayKind: "fixed",
      hedgeDelayMs: "30",
      budgetPercent: "5",
      tiedDelayMs: "2",
      replicaChoice: "least-outstanding",
      repeat: "5",
      thresholds: "GET p99.9<50ms@ci\nerrors<0.1%",
      verify: true,
      points: "1 × 512 × 8KiB",
      testbedReplicas: "3",
      testbedProfile: "stalls",
      testbedSeed: "",
    });
  });

  it("round-trips through the draft", () => {
    const original = form({
      clients: "1, 4",
      sizes: "4KiB",
      mode: "tied",
      tiedDelayMs: "3",
      thresholds: "PUT ops/s>800\nclient-bound=false",
    });
    const draft = formToDraft(original, {}, { testbed: false });
    expect(experimentToForm(draft)).toEqual(original);
  });
});

describe("replica endpoints", () => {
  it("go with the draft in the order chosen, and come back into the form", () => {
    const chosen = form({ replicaEndpointIds: ["e3", "e2"] });
    const draft = formToDraft(chosen, {}, { testbed: false });
    expect(draft.replicaEndpointIds).toEqual(["e3", "e2"]);
    expect(draft.spec).not.toHaveProperty("endpoints");
    expect(experimentToForm(draft).replicaEndpointIds).toEqual(["e3", "e2"]);
    expect(formToDraft(form(), {}, { testbed: false })).not.toHaveProperty("replicaEndpointIds");
  });

  it("show an error about one of them at the replicas' field", () => {
    const mapped = mapExperimentErrors(
      [
        { field: "experiment.replicaEndpointIds[1]", message: 'no saved endpoint with id "gone"' },
        { field: "draft.replicaEndpointIds", message: "expected an endpoint with a URL" },
      ],
      form({ replicaEndpointIds: ["e3", "gone"] }),
    );
    expect(mapped.fields).toEqual({
      replicaEndpointIds: 'no saved endpoint with id "gone"; expected an endpoint with a URL',
    });
  });
});

describe("errors at the builder's fields", () => {
  it("maps spec paths, whatever wraps them, and names the value a list error is about", () => {
    const typed = form({ clients: "1, 0, 8", sizes: "4KiB, 4XB" });
    const mapped = mapExperimentErrors(
      [
        { field: "spec.clients[1]", message: "expected at least 1 client" },
        { field: "experiment.spec.objectSize[1]", message: '"4XB" has an unknown unit "XB"' },
        { field: "draft.name", message: "is required" },
        { field: "spec.openLoop.durationMs", message: '"30" is not a duration' },
        { field: "spec.hedge.delay", message: "not a hedge delay" },
        { field: "spec.points[2].samples", message: "samples (1) must be at least clients (2)" },
        { field: "spec.testbed.profile.queue.slots", message: "slots must be at least 1" },
        { field: "modes", message: "choose at least one mode" },
        { field: "spec.transport", message: "invalid option" },
        { field: "spec.thresholds[1]", message: 'threshold "x" cannot be read' },
        { field: "spec.workload.range", message: "unknown range choice" },
        { field: "spec.requestTimeoutMs", message: "expected a duration" },
        { field: "spec.workload.multipartPartBytes", message: "too small" },
      ],
      typed,
    );
    expect(mapped.fields).toEqual({
      clients: "“0”: expected at least 1 client",
      sizes: '"4XB" has an unknown unit "XB"',
      name: "is required",
      duration: '"30" is not a duration',
      hedgeDelay: "not a hedge delay",
      points: "#3 samples: samples (1) must be at least clients (2)",
      testbedProfile: "latency profile field “queue.slots”: slots must be at least 1",
      modes: "choose at least one mode",
      thresholds: 'threshold "x" cannot be read',
      transport: "invalid option",
      workloadRange: "unknown range choice",
      requestTimeout: "expected a duration",
      multipartPartSize: "too small",
    });
    expect(mapped.other).toEqual([]);
  });

  it("joins several errors at one field", () => {
    const mapped = mapExperimentErrors(
      [
        { field: "spec.samples", message: "is required" },
        { field: "spec.samples[0]", message: "expected a whole number of samples" },
      ],
      form({ samples: "x" }),
    );
    expect(mapped.fields.samples).toBe("is required; “x”: expected a whole number of samples");
  });
});
