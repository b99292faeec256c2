import type { ResolvedCredentials } from "@taillab/engine";
import { startTestbed, type Testbed } from "@taillab/testbed";
import { randomBytes } from "node:crypto";

export interface EmbeddedTestbed {
  url: string;
  credentials: ResolvedCredentials;
  close(): Promise<void>;
}

/**
 * The default endpoint when a spec names none: an in-memory testbed on a free loopback port,
 * with credentials made for this launch so requests are signed and checked as on a real server.
 */
export async function startEmbeddedTestbed(bucket: string): Promise<EmbeddedTestbed> {
  const credentials = {
    accessKeyId: `TAILLAB${randomBytes(6).toString("hex").toUpperCase()}`,
    secretAccessKey: randomBytes(20).toString("base64url"),
  };
  const testbed: Testbed = await startTestbed({ credentials, buckets: [bucket] });
  return { url: testbed.url, credentials, close: () => testbed.close() };
}
