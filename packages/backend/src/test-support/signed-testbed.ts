import { createControlPlane, type ControlPlane } from "@taillab/engine";
import { startTestbed, type Testbed } from "@taillab/testbed";

/**
 * A testbed that checks signatures, with bucket "loadgen", the spec endpoint that reaches it by
 * credential references, the secrets those references resolve to, and a control plane for
 * looking at the bucket — what backend tests need to run benchmarks against a real S3 server.
 */
export interface SignedTestbed {
  testbed: Testbed;
  bucket: ControlPlane;
  credentials: { accessKeyId: string; secretAccessKey: string };
  secrets: { env: Record<string, string> };
  endpoint(): {
    url: string;
    credentials: { kind: "env"; accessKeyIdVar: string; secretAccessKeyVar: string };
  };
  close(): Promise<void>;
}

export async function startSignedTestbed(): Promise<SignedTestbed> {
  const credentials = { accessKeyId: "TESTKEY", secretAccessKey: "test-secret" };
  const testbed = await startTestbed({ credentials, buckets: ["loadgen"] });
  const bucket = createControlPlane({
    url: testbed.url,
    region: "us-east-1",
    addressing: "path",
    credentials,
    bucket: "loadgen",
    maxConnections: 1,
  });
  return {
    testbed,
    bucket,
    credentials,
    secrets: {
      env: {
        TB_ACCESS_KEY_ID: credentials.accessKeyId,
        TB_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      },
    },
    endpoint: () => ({
      url: testbed.url,
      credentials: {
        kind: "env",
        accessKeyIdVar: "TB_ACCESS_KEY_ID",
        secretAccessKeyVar: "TB_SECRET_ACCESS_KEY",
      },
    }),
    close: async () => {
      await bucket.close();
      await testbed.close();
    },
  };
}
