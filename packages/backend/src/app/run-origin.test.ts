import { RunSpecSchema, type Experiment, type StoredEndpoint } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { runOrigin } from "./run-origin.ts";

const DATE = "2025-03-01T10:00:00.000Z";

function endpoint(id: string, changes: Partial<StoredEndpoint> = {}): StoredEndpoint {
  return {
    id,
    name: id,
    kind: "minio",
    url: "http://127.0.0.1:9000",
    region: "us-east-1",
    addressing: "path",
    bucket: "loadgen",
    credentials: { kind: "stored", accessKeyId: "minio" },
    createdAt: DATE,
    updatedAt: DATE,
    ...changes,
  };
}

const experiment = (id: string, endpointId: string, samples: number): Experiment => ({
  id,
  builtIn: false,
  updatedAt: DATE,
  name: id,
  description: "",
  endpointId,
  spec: { clients: 4, samples, objectSize: "4KiB" },
});

const ENDPOINT_B = { url: "http://127.0.0.1:9000", credentials: { kind: "keychain", id: "b" } };

/** The spec a run of `samples` on the MinIO endpoint "b" (and `replicas`) stores. */
const storedSpec = (samples: number, replicas: object[] = []) =>
  JSON.parse(
    JSON.stringify(
      RunSpecSchema.parse({
        clients: 4,
        samples,
        objectSize: "4KiB",
        endpoints: [ENDPOINT_B, ...replicas],
      }),
    ),
  );

describe("runOrigin", () => {
  const endpoints = [endpoint("a", { url: "http://127.0.0.1:9001" }), endpoint("b")];

  it("finds the endpoint by its address and keys, and the experiment that runs this spec", () => {
    const experiments = [experiment("x", "b", 100), experiment("y", "b", 256)];
    expect(runOrigin(storedSpec(256), endpoints, experiments)).toEqual({
      endpointId: "b",
      experimentId: "y",
    });
  });

  it("keeps the endpoint when no experiment runs this spec any more", () => {
    expect(runOrigin(storedSpec(999), endpoints, [experiment("y", "b", 256)])).toEqual({
      endpointId: "b",
      experimentId: null,
    });
  });

  it("finds nothing once the endpoint is gone or signs in otherwise", () => {
    const otherKeys = endpoint("b", { credentials: { kind: "anonymous" } });
    for (const known of [[endpoints[0]!], [otherKeys]]) {
      expect(runOrigin(storedSpec(256), known, [experiment("y", "b", 256)])).toEqual({
        endpointId: null,
        experimentId: null,
      });
    }
  });

  it("finds the saved endpoints of a run's replicas, in its order, or none to run it again on", () => {
    const replicaA = { url: "http://127.0.0.1:9001", credentials: { kind: "keychain", id: "a" } };
    const spec = storedSpec(256, [replicaA]);
    expect(runOrigin(spec, endpoints, [])).toEqual({
      endpointId: "b",
      replicaEndpointIds: ["a"],
      experimentId: null,
    });
    const withReplica = { ...experiment("y", "b", 256), replicaEndpointIds: ["a"] };
    expect(runOrigin(spec, endpoints, [withReplica])).toMatchObject({ experimentId: "y" });
    expect(runOrigin(spec, [endpoints[1]!], [])).toEqual({ endpointId: null, experimentId: null });
  });
});
