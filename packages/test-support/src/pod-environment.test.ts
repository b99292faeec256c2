import type { V1Container, V1Pod } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { containerEnvironment, expand, PodConfigError, type KeyLookup } from "./pod-environment.ts";

const pod: V1Pod = {
  metadata: {
    name: "job-2-abcde",
    namespace: "runs",
    labels: { "batch.kubernetes.io/job-completion-index": "2" },
    annotations: { "taillab.io/start-at": "2026-11-24T10:00:00Z" },
  },
  spec: { nodeName: "node-a", containers: [] },
};
const lookup: KeyLookup = {
  secret: (name) =>
    name === "creds" ? { AWS_ACCESS_KEY_ID: "id", AWS_SECRET_ACCESS_KEY: "key" } : undefined,
  configMap: (name) => (name === "settings" ? { LEVEL: "3" } : undefined),
};
const environment = (container: Partial<V1Container>) =>
  containerEnvironment(pod, { name: "main", ...container }, lookup);

describe("a container's environment", () => {
  it("takes envFrom first, then env in order, later values overriding earlier ones", () => {
    expect(
      environment({
        envFrom: [
          { secretRef: { name: "creds" } },
          { configMapRef: { name: "settings" }, prefix: "CFG_" },
        ],
        env: [
          { name: "CFG_LEVEL", value: "4" },
          {
            name: "INDEX",
            valueFrom: {
              fieldRef: {
                fieldPath: "metadata.labels['batch.kubernetes.io/job-completion-index']",
              },
            },
          },
          {
            name: "START",
            valueFrom: { fieldRef: { fieldPath: "metadata.annotations['taillab.io/start-at']" } },
          },
          {
            name: "KEY",
            valueFrom: { secretKeyRef: { name: "creds", key: "AWS_SECRET_ACCESS_KEY" } },
          },
          { name: "NODE", valueFrom: { fieldRef: { fieldPath: "spec.nodeName" } } },
          { name: "WHERE", value: "$(NODE)/$(INDEX)/$(UNSET)" },
        ],
      }),
    ).toEqual({
      AWS_ACCESS_KEY_ID: "id",
      AWS_SECRET_ACCESS_KEY: "key",
      CFG_LEVEL: "4",
      INDEX: "2",
      START: "2026-11-24T10:00:00Z",
      KEY: "key",
      NODE: "node-a",
      WHERE: "node-a/2/$(UNSET)",
    });
  });

  it("fails as a kubelet does on a missing Secret or key, unless optional", () => {
    expect(() => environment({ envFrom: [{ secretRef: { name: "nope" } }] })).toThrow(
      PodConfigError,
    );
    expect(() =>
      environment({
        env: [{ name: "K", valueFrom: { secretKeyRef: { name: "creds", key: "NOPE" } } }],
      }),
    ).toThrow(/Secret "creds" has no key "NOPE"/);
    expect(
      environment({
        env: [
          { name: "K", valueFrom: { secretKeyRef: { name: "nope", key: "K", optional: true } } },
        ],
      }),
    ).toEqual({});
  });

  it.each([
    ["--shard $(INDEX)/4", "--shard 2/4"],
    ["$(MISSING) stays", "$(MISSING) stays"],
    ["$$(INDEX) is escaped", "$(INDEX) is escaped"],
    ["$INDEX is shell syntax", "$INDEX is shell syntax"],
  ])("expands %j to %j", (text, expanded) => {
    expect(expand(text, { INDEX: "2" })).toBe(expanded);
  });
});
