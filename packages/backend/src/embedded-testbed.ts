import type { LatencyProfile, TestbedReplicaStats, TestbedSetup } from "@taillab/api";
import type { ResolvedCredentials } from "@taillab/engine";
import { startTestbed } from "@taillab/testbed";
import { randomBytes } from "node:crypto";

export interface EmbeddedTestbed {
  /** One per replica; all replicas share one object store. */
  urls: string[];
  credentials: ResolvedCredentials;
  /** The replicas serving now. */
  stats(): TestbedReplicaStats[];
  /** A live session's knobs: another profile from the next request on. */
  setProfile(profile: LatencyProfile): void;
  /** A live session's knobs: replicas started or retired; answers every replica's URL. */
  setReplicas(count: number): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * The default endpoint when a spec names none: an in-memory testbed on free loopback ports, with
 * credentials made for this launch so requests are signed and checked as on a real server.
 */
export async function startEmbeddedTestbed(
  bucket: string,
  setup: TestbedSetup,
): Promise<EmbeddedTestbed> {
  const credentials = {
    accessKeyId: `TAILLAB${randomBytes(6).toString("hex").toUpperCase()}`,
    secretAccessKey: randomBytes(20).toString("base64url"),
  };
  const testbed = await startTestbed({
    credentials,
    buckets: [bucket],
    replicas: setup.replicas,
    profile: setup.profile,
    seed: setup.seed,
  });
  return {
    urls: testbed.replicas.map((replica) => replica.url),
    credentials,
    stats: () =>
      testbed.replicas.map((replica) => {
        const { received, completed, aborted, served, tiesDropped } = replica.stats();
        return { url: replica.url, received, completed, aborted, served, tiesDropped };
      }),
    setProfile: (profile) => testbed.setProfile(profile),
    setReplicas: (count) => testbed.setReplicas(count),
    close: () => testbed.close(),
  };
}
