import { HttpRequest, HttpResponse } from "@smithy/protocol-http";
import type { MiddlewareStack } from "@smithy/types";
import { Readable } from "node:stream";
import type { MicrosClock } from "./object-transport.ts";
import { readWholeBody } from "./response-body.ts";
import { answerLimits, requestTimings } from "./undici-http-handler.ts";
import { WireTiming } from "./wire-timing.ts";

/** The HTTP answer under one SDK call, as it came off the wire. */
export interface ResponseProbe {
  /** 0 until a response arrives. */
  status: number;
  /** The steps of the request, stamped by the undici handler under the SDK. */
  timing: WireTiming;
  /** The whole body, when the probe reads it; null until then or when it does not. */
  body: Buffer | null;
}

/**
 * Adds a middleware to a command's stack that sees the raw response before the SDK deserialises
 * it (lowest priority in the deserialize step: innermost, right above the request handler). It
 * adds the caller's extra headers, hands the request's WireTiming to the undici handler (which stamps sent, headers and first
 * body byte as the fast path does), calls `onResponse` when the headers arrived, and with
 * `readBody` reads the body whole, handing the SDK the bytes instead of the stream (only for
 * answers with small bodies: not GetObject's).
 *
 * The raw status matters because the SDK rewrites it: for a 2xx answer whose body is an S3 error
 * document, its throw-200-exceptions middleware sets 503 before deserialising, and for an empty
 * body where the command expects a document (an operation's emptyBodyIsError) it throws an
 * InternalError with status 503. The outcome reports the status the server sent.
 */
export function attachResponseProbe<Input extends object, Output extends object>(
  stack: MiddlewareStack<Input, Output>,
  clock: MicrosClock,
  onResponse: ((status: number) => void) | undefined,
  readBody: boolean,
  headers?: Readonly<Record<string, string>>,
): ResponseProbe {
  const probe: ResponseProbe = { status: 0, timing: new WireTiming(clock), body: null };
  stack.add(
    (next) => async (args) => {
      if (HttpRequest.isInstance(args.request)) {
        requestTimings.set(args.request, probe.timing);
        // A body the caller reads itself (GetObject's) is streamed to it, whatever its length.
        if (!readBody) answerLimits.set(args.request, Number.POSITIVE_INFINITY);
        // After signing, so unsigned: fine for headers outside x-amz-*, such as a tie id.
        if (headers) Object.assign(args.request.headers, headers);
      }
      const result = await next(args);
      const { response } = result;
      if (HttpResponse.isInstance(response)) {
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
