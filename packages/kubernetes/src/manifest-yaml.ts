/**
 * The manifests as YAML for review or GitOps (pure). Strings that a YAML 1.1 reader would take
 * for another type (an ISO timestamp, "yes", "3") are quoted, so the start-at annotation stays a
 * string. The Secret's values are never printed: each is a placeholder naming its key.
 */
import { dumpYaml } from "@kubernetes/client-node";
import { secretPlaceholder } from "@taillab/api";
import type { DistributedRunManifests } from "./distributed-job.ts";

export function manifestsYaml({ job, secret }: DistributedRunManifests): string {
  const documents: object[] = [];
  if (secret !== null) {
    const stringData = Object.fromEntries(
      Object.keys(secret.stringData ?? {}).map((key) => [key, secretPlaceholder(key)]),
    );
    documents.push({ ...secret, stringData });
  }
  documents.push(job);
  return documents.map((document) => dumpYaml(document)).join("---\n");
}
