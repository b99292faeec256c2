import { HttpResponse } from "@smithy/protocol-http";
import type { MiddlewareStack } from "@smithy/types";
import { Readable } from "node:stream";
import type { MicrosClock } from "./object-transport.ts";
import { readWholeBody } from "./response-body.ts";

/** The HTTP answer under one SDK call, as it came off the wire. */
export interface ResponseProbe {
  /** 0 until a response arrives. */
  status: number;
  /** When the response headers arrived; -1 until then. */
  firstByteUs: number;
  /** The whole body, when the probe reads it; null until then or when it does not. */
  body: Buffer | null;
}

/**
 * Adds a middleware to a command's stack that sees the raw response before the SDK deserialises
 * it (lowest priority in the deserialize step: innermost, right above the request handler). It
 * stamps when the headers arrived, calls `onResponse` then (as the fast path does), and with
 * `readBody` reads the body whole, handing the SDK the bytes instead of the stream (only for
 * answers with small bodies: not GetObject's).
 *
 * The raw status matters because the SDK rewrites it: for a 2xx answer whose body is an S3 error
 * document, its throw-200-exceptions middleware sets 503 before deserialising, and for an empty
 * CopyObject / CompleteMultipartUpload body it throws an InternalError with status 503. The
 * outcome reports the status the server sent.
 */
export function attachResponseProbe<Input extends object, Output extends object>(
  stack: MiddlewareStack<Input, Output>,
  clock: MicrosClock,
  onResponse: ((status: number) => void) | undefined,
  readBody: boolean,
): ResponseProbe {
  const probe: ResponseProbe = { status: 0, firstByteUs: -1, body: null };
  stack.add(
    (next) => async (args) => {
      const result = await next(args);
      const { response } = result;
      if (HttpResponse.isInstance(response)) {
        probe.firstByteUs = clock();
        probe.status = response.statusCode;
        onResponse?.(response.statusCode);
        if (readBody && response.body instanceof Readable) {
          probe.body = await readWholeBody(response.body);
          response.body = probe.body;
        }
      }
      return result;
    },
    { step: "deserialize", priority: "low" },
  );
  return probe;
}
