/**
 * Objects under one prefix of a bucket, for coordinating shards through the storage they measure
 * and leaving their results there: create-only writes (If-None-Match: *, honoured by AWS S3,
 * MinIO and the testbed), plain writes, reads and listings, with the server's Date header kept
 * for a clock check.
 */
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import { allowAnswerUpTo, ANSWER_LIMIT_BYTES } from "@taillab/engine";
import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ServerDateSample } from "./server-clock.ts";

export interface MarkerStore {
  /** "exists" when the key was already there (412 PreconditionFailed); nothing is overwritten. */
  create(name: string, body: string): Promise<{ created: boolean; date: ServerDateSample | null }>;
  put(name: string, body: string | Uint8Array): Promise<void>;
  /**
   * The object's bytes, or null when there is none; an object longer than `limitBytes` (default
   * the engine's ANSWER_LIMIT_BYTES) is not read further and fails as ResponseTooLarge.
   */
  get(name: string, limitBytes?: number): Promise<Uint8Array | null>;
  /**
   * The object streamed into the file at `path` as it arrives, never held whole: false when there
   * is none; an object longer than `limitBytes` fails as ResponseTooLarge.
   */
  download(name: string, path: string, limitBytes: number): Promise<boolean>;
  /** Names (keys less the store's prefix) under `under`, every page. */
  list(under: string): Promise<string[]>;
  /** Deletes these names, a thousand to a request; fails naming a key the server kept. */
  remove(names: readonly string[]): Promise<void>;
  /** One look at the server's clock (a HEAD of the bucket): null without a Date header. */
  serverDate(): Promise<ServerDateSample | null>;
  /** s3://bucket/prefix/name, for messages. */
  where(name: string): string;
}

export interface MarkerStoreOptions {
  client: S3Client;
  bucket: string;
  /** Prepended to every name: the run's folder in the bucket, e.g. "taillab/runs/abc/". */
  prefix: string;
  signal?: AbortSignal;
  /** Epoch ms now, for the clock samples; default Date.now (a test moves a shard's clock). */
  now?: () => number;
}

export function createMarkerStore({
  client,
  bucket,
  prefix,
  signal,
  now = Date.now,
}: MarkerStoreOptions): MarkerStore {
  const where = (name: string) => `s3://${bucket}/${prefix}${name}`;
  const failure = (doing: string, error: unknown) => {
    const { name, message } = error as Error;
    return new Error(`${doing}: ${name}: ${message}`, { cause: error });
  };
  return {
    async create(name, body) {
      const command = new PutObjectCommand({
        Bucket: bucket,
        Key: `${prefix}${name}`,
        Body: Buffer.from(body),
        IfNoneMatch: "*",
        ContentType: "application/json",
      });
      const dated = datedSend(client, command, signal, now);
      try {
        await dated.sent;
        return { created: true, date: dated.sample() };
      } catch (error) {
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata
          ?.httpStatusCode;
        if (status === 412) return { created: false, date: dated.sample() };
        throw failure(`creating ${where(name)}`, error);
      }
    },

    async serverDate() {
      const dated = datedSend(client, new HeadBucketCommand({ Bucket: bucket }), signal, now);
      try {
        await dated.sent;
      } catch (error) {
        throw failure(`looking at s3://${bucket}`, error);
      }
      return dated.sample();
    },

    async put(name, body) {
      try {
        await client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: `${prefix}${name}`,
            Body: typeof body === "string" ? Buffer.from(body) : body,
          }),
          { abortSignal: signal },
        );
      } catch (error) {
        throw failure(`writing ${where(name)}`, error);
      }
    },

    async get(name, limitBytes = ANSWER_LIMIT_BYTES) {
      try {
        const command = new GetObjectCommand({ Bucket: bucket, Key: `${prefix}${name}` });
        allowAnswerUpTo(command.middlewareStack, limitBytes);
        const answer = await client.send(command, { abortSignal: signal });
        return (await answer.Body?.transformToByteArray()) ?? new Uint8Array();
      } catch (error) {
        if ((error as Error).name === "NoSuchKey") return null;
        throw failure(`reading ${where(name)}`, error);
      }
    },

    async download(name, path, limitBytes) {
      try {
        const command = new GetObjectCommand({ Bucket: bucket, Key: `${prefix}${name}` });
        allowAnswerUpTo(command.middlewareStack, limitBytes);
        const answer = await client.send(command, { abortSignal: signal });
        await pipeline(
          (answer.Body as Readable | undefined) ?? Readable.from([]),
          createWriteStream(path),
        );
        return true;
      } catch (error) {
        if ((error as Error).name === "NoSuchKey") return false;
        throw failure(`reading ${where(name)}`, error);
      }
    },

    async remove(names) {
      for (let at = 0; at < names.length; at += DELETE_BATCH) {
        const batch = names.slice(at, at + DELETE_BATCH);
        let answer;
        try {
          answer = await client.send(
            new DeleteObjectsCommand({
              Bucket: bucket,
              Delete: { Objects: batch.map((name) => ({ Key: `${prefix}${name}` })), Quiet: true },
            }),
            { abortSignal: signal },
          );
        } catch (error) {
          throw failure(`deleting ${batch.length} objects under ${where("")}`, error);
        }
        const [kept] = answer.Errors ?? [];
        if (kept) {
          throw new Error(
            `deleting s3://${bucket}/${kept.Key ?? "?"}: ${kept.Code ?? "?"}: ${kept.Message ?? ""} (${answer.Errors?.length} of ${batch.length} kept)`,
          );
        }
      }
    },

    async list(under) {
      const names: string[] = [];
      let token: string | undefined;
      try {
        do {
          const page = await client.send(
            new ListObjectsV2Command({
              Bucket: bucket,
              Prefix: `${prefix}${under}`,
              ContinuationToken: token,
            }),
            { abortSignal: signal },
          );
          for (const entry of page.Contents ?? []) {
            if (entry.Key !== undefined) names.push(entry.Key.slice(prefix.length));
          }
          token = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (token !== undefined);
      } catch (error) {
        throw failure(`listing ${where(under)}`, error);
      }
      return names;
    },

    where,
  };
}

/** Keys per DeleteObjects request: S3's maximum. */
const DELETE_BATCH = 1000;

/**
 * Sends the command and keeps its response's Date header with when the request left and its
 * answer came (an error response's too): a sample of the server's clock.
 */
function datedSend(
  client: S3Client,
  command: PutObjectCommand | HeadBucketCommand,
  signal: AbortSignal | undefined,
  now: () => number,
): { sent: Promise<unknown>; sample: () => ServerDateSample | null } {
  let dateHeader: string | undefined;
  let receivedAtMs = 0;
  // One middleware for both commands; their stacks differ only in the input and output types.
  (command.middlewareStack as PutObjectCommand["middlewareStack"]).add(
    (next) => async (args) => {
      const seen = (response: unknown) => {
        dateHeader = (response as { headers?: Record<string, string> } | undefined)?.headers?.date;
        receivedAtMs = now();
      };
      try {
        const result = await next(args);
        seen(result.response);
        return result;
      } catch (error) {
        // An error answer (a 412) is a sample too; the SDK keeps the raw response on the error.
        seen((error as { $response?: unknown }).$response);
        throw error;
      }
    },
    { step: "deserialize", name: "taillabServerDate" },
  );
  const sentAtMs = now();
  // Both commands are sent through one client; the union confuses send's overloads.
  const sent = client.send(command as PutObjectCommand, { abortSignal: signal });
  return {
    sent,
    sample: () => (dateHeader === undefined ? null : { dateHeader, sentAtMs, receivedAtMs }),
  };
}
