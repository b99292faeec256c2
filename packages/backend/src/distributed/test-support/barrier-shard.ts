/**
 * One shard process for the barrier tests: passes the start barrier, spins to T0 and prints one
 * JSON line — { t0Ms, startedMs } or { failure, shards, message }. Its input is argv[2] as JSON.
 */
import { S3Client } from "@aws-sdk/client-s3";
import { createMarkerStore } from "../bucket-markers.ts";
import { spinUntil } from "@taillab/engine";
import { passStartBarrier, StartBarrierError } from "../start-barrier.ts";

export interface BarrierShardInput {
  url: string;
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
  prefix: string;
  index: number;
  shards: number;
  startAtMs: number;
  deadlineMs: number;
  graceMs?: number;
}

export function barrierS3Client(
  input: Pick<BarrierShardInput, "url" | "accessKeyId" | "secretAccessKey">,
): S3Client {
  return new S3Client({
    endpoint: input.url,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: input.accessKeyId, secretAccessKey: input.secretAccessKey },
    maxAttempts: 1,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

if (import.meta.main) {
  const input = JSON.parse(process.argv[2] ?? "") as BarrierShardInput;
  const client = barrierS3Client(input);
  const markers = createMarkerStore({ client, bucket: input.bucket, prefix: input.prefix });
  try {
    const { t0Ms } = await passStartBarrier({ ...input, markers });
    const startedMs = await spinUntil(t0Ms);
    process.stdout.write(`${JSON.stringify({ t0Ms, startedMs })}\n`);
  } catch (error) {
    if (!(error instanceof StartBarrierError)) throw error;
    const { reason, shards, message } = error;
    process.stdout.write(`${JSON.stringify({ failure: reason, shards, message })}\n`);
  } finally {
    client.destroy();
  }
}
