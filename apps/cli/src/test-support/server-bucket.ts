import { createControlPlane, type ControlPlane } from "@taillab/engine";

/** A real server as the CLI's tests use it: its credentials as env vars, and bucket "loadgen". */
export interface ServerBucket {
  env: Record<string, string>;
  bucket: ControlPlane;
}

export async function createServerBucket(server: {
  url: string;
  accessKeyId: string;
  secretAccessKey: string;
}): Promise<ServerBucket> {
  const bucket = createControlPlane({
    url: server.url,
    region: "us-east-1",
    addressing: "path",
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    bucket: "loadgen",
    maxConnections: 1,
  });
  await bucket.createBucket();
  return {
    env: { AWS_ACCESS_KEY_ID: server.accessKeyId, AWS_SECRET_ACCESS_KEY: server.secretAccessKey },
    bucket,
  };
}
