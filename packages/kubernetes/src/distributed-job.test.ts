import { loadAllYaml, type V1Job, type V1Secret } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import {
  distributedRunManifests,
  START_AT_ANNOTATION,
  type DistributedJobInput,
} from "./distributed-job.ts";
import { jobProgress, parseIndexes } from "./job-status.ts";
import {
  checkDistributedJobInput,
  checkManifests,
  ManifestError,
  validatedManifests,
} from "./manifest-checks.ts";
import { manifestsYaml } from "./manifest-yaml.ts";
import { TEST_POD_SETTINGS } from "./test-support/test-pod-settings.ts";

const input = (overrides: Partial<DistributedJobInput> = {}): DistributedJobInput => ({
  name: "taillab-r1",
  namespace: "bench",
  shards: 8,
  image: "registry.test/taillab:0.1.0",
  runArgs: ["run", "--spec", "/spec/spec.json"],
  resultsUri: "s3://loadgen/taillab/runs/r1/",
  startAt: "2026-11-24T10:00:00.000Z",
  activeDeadlineSeconds: 900,
  ttlSecondsAfterFinished: 3600,
  credentials: { kind: "create", accessKeyId: "AKID", secretAccessKey: "s3cret" },
  pod: TEST_POD_SETTINGS,
  ...overrides,
});

describe("the distributed run's manifests", () => {
  it("are an Indexed Job of N shards that fails an index at once on exit 3", () => {
    const { job } = distributedRunManifests(input());
    expect(job.spec).toMatchObject({
      completionMode: "Indexed",
      completions: 8,
      parallelism: 8,
      backoffLimitPerIndex: 0,
      maxFailedIndexes: 8,
      podReplacementPolicy: "Failed",
      activeDeadlineSeconds: 900,
      ttlSecondsAfterFinished: 3600,
      podFailurePolicy: {
        rules: [
          { action: "FailIndex", onExitCodes: { operator: "In", values: [3] } },
          { action: "Ignore", onPodConditions: [{ type: "DisruptionTarget", status: "True" }] },
        ],
      },
    });
    const pod = job.spec?.template;
    expect(pod?.spec?.restartPolicy).toBe("Never");
    expect(pod?.metadata?.annotations).toEqual({
      [START_AT_ANNOTATION]: "2026-11-24T10:00:00.000Z",
    });
    const container = pod?.spec?.containers[0];
    expect(container?.image).toBe("registry.test/taillab:0.1.0");
    expect(container?.args).toEqual([
      "run",
      "--spec",
      "/spec/spec.json",
      "--shard",
      "$(JOB_COMPLETION_INDEX)/8",
      "--start-at",
      "$(TAILLAB_START_AT)",
      "--results",
      "s3://loadgen/taillab/runs/r1/",
    ]);
    expect(container?.env).toEqual([
      {
        name: "TAILLAB_START_AT",
        valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${START_AT_ANNOTATION}']` } },
      },
      {
        name: "AWS_ACCESS_KEY_ID",
        valueFrom: { secretKeyRef: { name: "taillab-r1-credentials", key: "AWS_ACCESS_KEY_ID" } },
      },
      {
        name: "AWS_SECRET_ACCESS_KEY",
        valueFrom: {
          secretKeyRef: { name: "taillab-r1-credentials", key: "AWS_SECRET_ACCESS_KEY" },
        },
      },
    ]);
  });

  it("meet the restricted Pod Security level and say what each pod needs and where it goes", () => {
    const { job } = distributedRunManifests(
      input({
        pod: {
          requests: { cpu: "2", memory: "2Gi" },
          limits: { cpu: "2", memory: "2Gi" },
          nodeSelector: { pool: "bench" },
          tolerations: [
            { key: "dedicated", operator: "Equal", value: "bench", effect: "NoSchedule" },
          ],
          imagePullSecrets: ["regcred"],
          spread: "require",
        },
      }),
    );
    const spec = job.spec?.template.spec;
    expect(spec).toMatchObject({
      automountServiceAccountToken: false,
      securityContext: {
        runAsNonRoot: true,
        runAsUser: 1000,
        runAsGroup: 1000,
        seccompProfile: { type: "RuntimeDefault" },
      },
      nodeSelector: { pool: "bench" },
      tolerations: [{ key: "dedicated", operator: "Equal", value: "bench", effect: "NoSchedule" }],
      imagePullSecrets: [{ name: "regcred" }],
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: "kubernetes.io/hostname",
          whenUnsatisfiable: "DoNotSchedule",
          labelSelector: { matchLabels: { "taillab.io/run": "taillab-r1" } },
        },
      ],
    });
    expect(spec?.containers[0]).toMatchObject({
      securityContext: {
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ["ALL"] },
      },
      resources: { requests: { cpu: "2", memory: "2Gi" }, limits: { cpu: "2", memory: "2Gi" } },
      volumeMounts: [{ name: "tmp", mountPath: "/tmp" }],
    });
    // Unset placements are left out; "none" leaves the scheduler free.
    const plain = distributedRunManifests(input({ pod: { ...TEST_POD_SETTINGS, spread: "none" } }));
    const plainSpec = plain.job.spec?.template.spec ?? {};
    for (const field of [
      "nodeSelector",
      "tolerations",
      "imagePullSecrets",
      "topologySpreadConstraints",
    ]) {
      expect(plainSpec).not.toHaveProperty(field);
    }
  });

  it("create the credentials Secret, or refer to the one given", () => {
    const created = distributedRunManifests(input());
    expect(created.secret?.metadata?.name).toBe("taillab-r1-credentials");
    expect(created.secret?.stringData).toEqual({
      AWS_ACCESS_KEY_ID: "AKID",
      AWS_SECRET_ACCESS_KEY: "s3cret",
    });
    const given = distributedRunManifests(
      input({ credentials: { kind: "existing", secretName: "storage-keys" } }),
    );
    expect(given.secret).toBeNull();
    expect(JSON.stringify(given.job)).toContain('"name":"storage-keys"');
  });

  it("pass the Kubernetes schemas", () => {
    expect(checkManifests(distributedRunManifests(input()))).toEqual([]);
  });

  it("are printed as YAML with the start time quoted and the secret left out", () => {
    const text = manifestsYaml(distributedRunManifests(input()));
    expect(text).toContain(`${START_AT_ANNOTATION}: '2026-11-24T10:00:00.000Z'`);
    expect(text).not.toContain("s3cret");
    const [secret, job] = loadAllYaml(text) as [V1Secret, V1Job];
    expect(secret.stringData?.AWS_SECRET_ACCESS_KEY).toBe("<fill in AWS_SECRET_ACCESS_KEY>");
    expect(job.spec?.template.metadata?.annotations?.[START_AT_ANNOTATION]).toBe(
      "2026-11-24T10:00:00.000Z",
    );
  });
});

describe("checks before submission", () => {
  it("accept a run whose last pod name is exactly 63 characters", () => {
    const name = "a".repeat(60); // "aaa…-499" = 64 characters, "aaa…-99" = 63
    expect(checkDistributedJobInput(input({ name, shards: 100 }))).toEqual([]);
    expect(checkDistributedJobInput(input({ name, shards: 500 }))).toEqual([
      {
        field: "name",
        message: `"${name}" is too long for 500 shards: the last pod's hostname "${name}-499" has 64 characters, at most 63 allowed (keep the name to 59)`,
      },
    ]);
  });

  it("name every bad field", () => {
    const problems = checkDistributedJobInput(
      input({
        name: "Bad_Name",
        namespace: "",
        shards: 0,
        image: "",
        startAt: "tomorrow",
        resultsUri: "loadgen/runs",
        activeDeadlineSeconds: 0,
        ttlSecondsAfterFinished: -1,
        credentials: { kind: "existing", secretName: "Keys!" },
        pod: {
          requests: { cpu: "one" },
          limits: { memory: "1 GB" },
          nodeSelector: { "bad key": "x" },
          tolerations: [{ key: "dedicated", operator: "Exists", effect: "NoRun" }],
          imagePullSecrets: ["Reg_Cred"],
          spread: "always" as never,
        },
      }),
    );
    expect(problems.map((problem) => problem.field)).toEqual([
      "name",
      "namespace",
      "shards",
      "image",
      "startAt",
      "resultsUri",
      "activeDeadlineSeconds",
      "ttlSecondsAfterFinished",
      "requests",
      "limits",
      "nodeSelector",
      "tolerations",
      "imagePullSecrets",
      "spread",
      "credentials.secretName",
    ]);
    expect(problems.find((problem) => problem.field === "tolerations")?.message).toBe(
      'dedicated: effect "NoRun" is not one of NoSchedule, PreferNoSchedule, NoExecute',
    );
  });

  it("catch a field of the wrong type or value in the objects themselves", () => {
    const manifests = distributedRunManifests(input());
    Object.assign(manifests.job.spec ?? {}, { completionMode: "Indxed", completions: "8" });
    expect(checkManifests(manifests)).toEqual([
      {
        field: "job.spec.completionMode",
        message: "must be equal to one of the allowed values (Indexed, NonIndexed)",
      },
      { field: "job.spec.completions", message: "must be integer" },
    ]);
  });

  it("throw every problem at once from validatedManifests", () => {
    expect(() => validatedManifests(input({ shards: 0, image: " " }))).toThrow(ManifestError);
    expect(() => validatedManifests(input({ shards: 0, image: " " }))).toThrow(
      /^shards: must be a whole number from 1 to 100000, not 0\nimage: /,
    );
    expect(validatedManifests(input()).job.metadata?.name).toBe("taillab-r1");
  });
});

describe("the Job's progress", () => {
  it.each([
    [undefined, []],
    ["", []],
    ["3", [3]],
    ["0-2,5,7-8", [0, 1, 2, 5, 7, 8]],
  ])("reads index list %j", (list, indexes) => {
    expect(parseIndexes(list)).toEqual(indexes);
  });

  it("reports ready, active, indexes and the finishing condition", () => {
    expect(
      jobProgress({
        status: {
          ready: 1,
          active: 2,
          completedIndexes: "0-1",
          failedIndexes: "3",
          conditions: [
            { type: "FailureTarget", status: "True" },
            {
              type: "Failed",
              status: "True",
              reason: "FailedIndexes",
              message: "Job has failed indexes",
            },
          ],
        },
      }),
    ).toEqual({
      ready: 1,
      active: 2,
      completedIndexes: [0, 1],
      failedIndexes: [3],
      finished: "Failed",
      reason: "FailedIndexes",
      message: "Job has failed indexes",
    });
    expect(jobProgress({}).finished).toBeNull();
  });
});
