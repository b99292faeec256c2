import type { RunSpec } from "@taillab/api";
import type { RunFolderUri } from "@taillab/core";
import { createTargetS3Client } from "@taillab/engine";
import { resolveCredentials, type SecretSources } from "../credentials.ts";
import { InputError } from "../input-error.ts";
import { createMarkerStore, type MarkerStore } from "./bucket-markers.ts";

/** A distributed run's folder, reached through the endpoint it measures. */
export interface RunFolderClient {
  folder: RunFolderUri;
  markers: MarkerStore;
  /** The same bucket from its root: where each shard wrote its objects, beside the folder. */
  bucket: MarkerStore;
  close(): Promise<void>;
}

/**
 * The run's folder through the spec's first endpoint and its credentials: the shards leave their
 * results in the storage they measure, so whoever can run them can read what they left.
 */
export async function openRunFolder(
  spec: Pick<RunSpec, "endpoints">,
  secrets: SecretSources,
  folder: RunFolderUri,
  options: { signal?: AbortSignal; now?: () => number } = {},
): Promise<RunFolderClient> {
  const [endpoint] = spec.endpoints ?? [];
  if (!endpoint) {
    throw InputError.of("endpoint", "a distributed run's folder is reached through an endpoint");
  }
  const credentials = await resolveCredentials(
    endpoint.credentials,
    secrets,
    "endpoints[0].credentials",
  );
  const { client, handler } = createTargetS3Client({
    url: endpoint.url.replace(/\/$/, ""),
    region: endpoint.region,
    addressing: endpoint.addressing,
    credentials,
    bucket: folder.bucket,
    maxConnections: 8,
  });
  return {
    folder,
    markers: createMarkerStore({
      client,
      bucket: folder.bucket,
      prefix: folder.prefix,
      ...options,
    }),
    bucket: createMarkerStore({ client, bucket: folder.bucket, prefix: "", ...options }),
    async close() {
      client.destroy();
      await handler.close();
    },
  };
}
