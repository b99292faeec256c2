/**
 * Checks before anything reaches a cluster (pure): the run's inputs, each problem naming its field,
 * then the generated objects against the Kubernetes schemas (types, enums) of kubernetes-models.
 * Semantic rules only the apiserver knows are left to its dry run.
 */
import { formatFieldErrors, type FieldError } from "@taillab/api";
import { Job } from "kubernetes-models/batch/v1/Job";
import { Secret } from "kubernetes-models/v1/Secret";
import {
  credentialsSecretName,
  distributedRunManifests,
  type DistributedJobInput,
  type DistributedRunManifests,
  type PodSettings,
} from "./distributed-job.ts";

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_LABEL_MAX = 63;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
const DNS_SUBDOMAIN_MAX = 253;
/** Kubernetes' own bound on an Indexed Job's completions without a maxFailedIndexes cap. */
const MAX_SHARDS = 100_000;

function dnsLabelProblem(value: string): string | null {
  if (value.length > DNS_LABEL_MAX) return `must be at most ${DNS_LABEL_MAX} characters`;
  if (!DNS_LABEL.test(value)) {
    return "must be lower-case letters, digits and '-', starting and ending with a letter or digit";
  }
  return null;
}

export function checkDistributedJobInput(input: DistributedJobInput): FieldError[] {
  const problems: FieldError[] = [];
  const problem = (field: string, message: string) => problems.push({ field, message });

  const nameProblem = dnsLabelProblem(input.name);
  if (nameProblem !== null) problem("name", `"${input.name}" ${nameProblem}`);
  const namespaceProblem = dnsLabelProblem(input.namespace);
  if (namespaceProblem !== null) problem("namespace", `"${input.namespace}" ${namespaceProblem}`);
  if (!Number.isInteger(input.shards) || input.shards < 1 || input.shards > MAX_SHARDS) {
    problem("shards", `must be a whole number from 1 to ${MAX_SHARDS}, not ${input.shards}`);
  } else if (nameProblem === null) {
    // Each pod's hostname is `<job>-<index>`, a DNS label: the apiserver refuses the Job else.
    const lastPod = `${input.name}-${input.shards - 1}`;
    if (lastPod.length > DNS_LABEL_MAX) {
      const room = DNS_LABEL_MAX - String(input.shards - 1).length - 1;
      problem(
        "name",
        `"${input.name}" is too long for ${input.shards} shards: the last pod's hostname "${lastPod}" has ${lastPod.length} characters, at most ${DNS_LABEL_MAX} allowed (keep the name to ${room})`,
      );
    }
  }
  if (input.image.trim() === "" || /\s/.test(input.image)) {
    problem(
      "image",
      `must be an image reference such as "registry/taillab:tag", not "${input.image}"`,
    );
  }
  if (!/^\d{4}-\d\d-\d\dT/.test(input.startAt) || !Number.isFinite(Date.parse(input.startAt))) {
    problem(
      "startAt",
      `must be an ISO 8601 time such as "2026-01-31T12:00:00Z", not "${input.startAt}"`,
    );
  }
  if (!/^s3:\/\/[^/]+\//.test(input.resultsUri)) {
    problem("resultsUri", `must be s3://BUCKET/PREFIX/, not "${input.resultsUri}"`);
  }
  if (!Number.isInteger(input.activeDeadlineSeconds) || input.activeDeadlineSeconds < 1) {
    problem(
      "activeDeadlineSeconds",
      `must be a whole number of seconds from 1, not ${input.activeDeadlineSeconds}`,
    );
  }
  if (!Number.isInteger(input.ttlSecondsAfterFinished) || input.ttlSecondsAfterFinished < 0) {
    problem(
      "ttlSecondsAfterFinished",
      `must be a whole number of seconds from 0, not ${input.ttlSecondsAfterFinished}`,
    );
  }
  problems.push(...podSettingsProblems(input.pod));
  if (input.credentials.kind === "existing") {
    const secret = credentialsSecretName(input);
    if (secret.length > DNS_SUBDOMAIN_MAX || !DNS_SUBDOMAIN.test(secret)) {
      problem("credentials.secretName", `"${secret}" is not a valid Secret name (a DNS subdomain)`);
    }
  } else if (input.credentials.accessKeyId === "" || input.credentials.secretAccessKey === "") {
    problem("credentials", "needs an access key id and a secret access key");
  }
  return problems;
}

/** A resource quantity as Kubernetes writes one: "500m", "1", "1.5", "512Mi", "2G". */
const QUANTITY = /^\d+(\.\d+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/;
/** A label key: an optional DNS-subdomain prefix and a name of at most 63 characters. */
const LABEL_KEY =
  /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/;
const TAINT_EFFECTS = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

function podSettingsProblems(pod: PodSettings): FieldError[] {
  const problems: FieldError[] = [];
  const problem = (field: string, message: string) => problems.push({ field, message });
  for (const kind of ["requests", "limits"] as const) {
    for (const [resource, quantity] of Object.entries(pod[kind])) {
      if (!LABEL_KEY.test(resource) || !QUANTITY.test(quantity)) {
        problem(
          kind,
          `${resource}=${quantity} is not a resource quantity such as cpu=500m or memory=512Mi`,
        );
      }
    }
  }
  for (const [key, value] of Object.entries(pod.nodeSelector)) {
    if (!LABEL_KEY.test(key) || !LABEL_VALUE.test(value)) {
      problem("nodeSelector", `${key}=${value} is not a node label such as disktype=ssd`);
    }
  }
  for (const toleration of pod.tolerations) {
    const key = toleration.key ?? "";
    if ((key !== "" && !LABEL_KEY.test(key)) || !LABEL_VALUE.test(toleration.value ?? "")) {
      problem("tolerations", `"${key}" is not a taint key such as dedicated=bench:NoSchedule`);
    }
    if (toleration.effect !== undefined && !TAINT_EFFECTS.includes(toleration.effect)) {
      problem(
        "tolerations",
        `${key}: effect "${toleration.effect}" is not one of ${TAINT_EFFECTS.join(", ")}`,
      );
    }
  }
  for (const name of pod.imagePullSecrets) {
    if (name.length > DNS_SUBDOMAIN_MAX || !DNS_SUBDOMAIN.test(name)) {
      problem("imagePullSecrets", `"${name}" is not a valid Secret name (a DNS subdomain)`);
    }
  }
  if (!["prefer", "require", "none"].includes(pod.spread)) {
    problem("spread", `expected prefer, require or none, not "${pod.spread}"`);
  }
  return problems;
}

/** Schema problems of the generated objects, fields named from the object (`job.spec.…`). */
export function checkManifests({ job, secret }: DistributedRunManifests): FieldError[] {
  const problems = schemaProblems("job", () => new Job(job as never).validate());
  if (secret !== null) {
    problems.push(...schemaProblems("secret", () => new Secret(secret as never).validate()));
  }
  return problems;
}

/** Bad inputs of a distributed run, or manifests that would not be valid Kubernetes objects. */
export class ManifestError extends Error {
  readonly problems: FieldError[];
  constructor(problems: FieldError[]) {
    super(formatFieldErrors(problems));
    this.name = "ManifestError";
    this.problems = problems;
  }
}

/** The run's manifests, once its inputs and then the objects themselves have been checked. */
export function validatedManifests(input: DistributedJobInput): DistributedRunManifests {
  const inputProblems = checkDistributedJobInput(input);
  if (inputProblems.length > 0) throw new ManifestError(inputProblems);
  const manifests = distributedRunManifests(input);
  const schemaProblems = checkManifests(manifests);
  if (schemaProblems.length > 0) throw new ManifestError(schemaProblems);
  return manifests;
}

interface AjvIssue {
  instancePath: string;
  message?: string;
  params?: { allowedValues?: unknown[] };
}

function schemaProblems(object: string, validate: () => void): FieldError[] {
  try {
    validate();
    return [];
  } catch (error) {
    const issues = (error as { errors?: AjvIssue[] }).errors;
    if (!Array.isArray(issues)) return [{ field: object, message: (error as Error).message }];
    return issues.map((issue) => {
      const allowed = issue.params?.allowedValues;
      const expected = allowed === undefined ? "" : ` (${allowed.join(", ")})`;
      return {
        field: [object, ...issue.instancePath.split("/").filter(Boolean)].join("."),
        message: `${issue.message ?? "is invalid"}${expected}`,
      };
    });
  }
}
