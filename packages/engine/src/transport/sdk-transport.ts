import * as S3 from "@aws-sdk/client-s3";
import type {
  S3Client,
  S3ClientResolvedConfig,
  ServiceInputTypes,
  ServiceOutputTypes,
} from "@aws-sdk/client-s3";
import { ABORTED_ERROR } from "@taillab/api";
import type { Command, MetadataBearer, MiddlewareStack } from "@smithy/types";
import { NO_FIELDS, nothing, type Reading } from "../operations/engine-operation.ts";
import { operationMethods } from "../operations/registry.ts";
import { addContentMd5 } from "./content-md5-middleware.ts";
import type {
  MicrosClock,
  ObjectTransport,
  RequestOptions,
  RequestOutcome,
  TransportTarget,
} from "./object-transport.ts";
import { createTargetS3Client } from "./s3-client.ts";
import { errorCodeFromSuccessBody } from "./s3-error-code.ts";
import { attachResponseProbe, type ResponseProbe } from "./sdk-response-probe.ts";
import { sdkErrorOutcome } from "./sdk-error.ts";
import { resolveTargetAddress } from "./transport-target.ts";

/** A command of the S3 client, as `callPlain` sends it. */
type S3Command<Input extends ServiceInputTypes, Output extends ServiceOutputTypes> = Command<
  ServiceInputTypes,
  Input,
  ServiceOutputTypes,
  Output,
  S3ClientResolvedConfig
>;

/**
 * What the SDK path lends each operation (operations/*.ts) to build its requests with. The
 * client's module comes with it, so an operation's module loads no SDK of its own: a worker that
 * sends with `fast` never loads it (transport-factory.ts).
 */
export interface SdkWire {
  S3: typeof S3;
  client: S3Client;
  /** The target bucket. */
  bucket: string;
  /**
   * One SDK call with a probe on its stack. `none` is the operation's fields when it failed;
   * `read` turns the SDK's output for a 2xx answer (and the raw body) into them. `uploadBytes`:
   * the body's size, counted once sent even if no answer came (as the fast path).
   */
  call<Input extends object, Output extends MetadataBearer, T extends object>(
    command: { middlewareStack: MiddlewareStack<Input, Output> },
    send: (abortSignal: AbortSignal | undefined) => Promise<Output>,
    options: RequestOptions,
    none: T,
    read: (output: Output, body: Buffer) => Reading<T>,
    flags?: { emptyBodyIsError?: boolean; uploadBytes?: number },
  ): Promise<RequestOutcome & T>;
  /** A call whose answer carries nothing but its status (and, for some, an error document). */
  callPlain<Input extends ServiceInputTypes, Output extends ServiceOutputTypes>(
    command: S3Command<Input, Output>,
    options: RequestOptions,
    emptyBodyIsError?: boolean,
  ): Promise<RequestOutcome>;
  /** For a call that reads its answer's body itself (GetObject): the probe on its stack. */
  attachProbe<Input extends object, Output extends object>(
    stack: MiddlewareStack<Input, Output>,
    onResponse: RequestOptions["onResponse"],
    readsBody: boolean,
    headers: RequestOptions["headers"],
  ): ResponseProbe;
  /** The outcome of a call whose signal had aborted before it was sent. */
  aborted(probe: ResponseProbe): RequestOutcome;
  /**
   * The outcome of a call the SDK threw on; an error answer's body counts as its bytes only when
   * `options.countErrorBody` asks.
   */
  failed(probe: ResponseProbe, error: unknown, options: RequestOptions): RequestOutcome;
  addContentMd5: typeof addContentMd5;
}

/**
 * The same operations through @aws-sdk/client-s3 (on the undici handler). Every call carries a
 * response probe (sdk-response-probe.ts) that stamps the headers' arrival, reports them to
 * onResponse and keeps the status as sent, so firstByteUs, onResponse and status mean what they
 * mean on the fast path. GetObject resolves once the headers have arrived and leaves the body to
 * be read by its operation; the other answers are small and read whole by the probe.
 */
export function createSdkTransport(target: TransportTarget, clock: MicrosClock): ObjectTransport {
  resolveTargetAddress(target);
  const { client, handler } = createTargetS3Client(target);

  function callPlain<Input extends ServiceInputTypes, Output extends ServiceOutputTypes>(
    command: S3Command<Input, Output>,
    options: RequestOptions,
    emptyBodyIsError = false,
  ): Promise<RequestOutcome> {
    return call(
      command,
      (abortSignal) => client.send(command, { abortSignal }),
      options,
      NO_FIELDS,
      nothing,
      { emptyBodyIsError },
    );
  }

  async function call<Input extends object, Output extends MetadataBearer, T extends object>(
    command: { middlewareStack: MiddlewareStack<Input, Output> },
    send: (abortSignal: AbortSignal | undefined) => Promise<Output>,
    options: RequestOptions,
    none: T,
    read: (output: Output, body: Buffer) => Reading<T>,
    { emptyBodyIsError = false, uploadBytes = 0 } = {},
  ): Promise<RequestOutcome & T> {
    const { signal, onResponse, headers } = options;
    const probe = attachResponseProbe(command.middlewareStack, clock, onResponse, true, headers);
    if (signal?.aborted) return { ...aborted(probe), ...none };
    try {
      const output = await send(signal);
      const timeline = probe.timing.finish();
      const status = probe.status || (output.$metadata.httpStatusCode ?? 200);
      const body = probe.body ?? Buffer.alloc(0);
      // The SDK spots an error document only when nothing follows </Error>; this is the same
      // test as the fast path's.
      const bodyError = errorCodeFromSuccessBody(body, emptyBodyIsError);
      if (bodyError !== null) {
        return { ...timeline, status, error: bodyError, bytes: 0, ...none };
      }
      const { fields, error = null, bytes = 0 } = read(output, body);
      return { ...timeline, status, error, bytes, ...fields };
    } catch (error) {
      const outcome = failed(probe, error, options);
      const { cancelledWireBytes, bodySent } = probe.timing;
      const bytes =
        cancelledWireBytes ?? (outcome.status === 0 && bodySent ? uploadBytes : outcome.bytes);
      return { ...outcome, bytes, ...none };
    }
  }

  function aborted(probe: ResponseProbe): RequestOutcome {
    return { ...probe.timing.finish(), status: 0, error: ABORTED_ERROR, bytes: 0 };
  }

  function failed(
    probe: ResponseProbe,
    error: unknown,
    { signal, onResponse, countErrorBody }: RequestOptions,
  ): RequestOutcome {
    const { status: sdkStatus, code } = sdkErrorOutcome(error, signal, probe.status);
    if (probe.status === 0 && sdkStatus > 0) onResponse?.(sdkStatus);
    const status = probe.status || sdkStatus;
    return {
      ...probe.timing.finish(),
      status,
      error: code,
      // An error answer's body, when asked (RequestOptions.countErrorBody).
      bytes: countErrorBody && status >= 300 ? probe.timing.receivedBodyBytes : 0,
    };
  }

  const wire: SdkWire = {
    S3,
    client,
    bucket: target.bucket,
    call,
    callPlain,
    attachProbe: (stack, onResponse, readsBody, headers) =>
      attachResponseProbe(stack, clock, onResponse, readsBody, headers),
    aborted,
    failed,
    addContentMd5,
  };
  return {
    ...operationMethods((operation) => operation.sdk(wire)),
    async close() {
      await handler.close();
      client.destroy();
    },
  };
}
