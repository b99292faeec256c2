import type { DeleteObjectsCommandInput, DeleteObjectsCommandOutput } from "@aws-sdk/client-s3";
import { HttpRequest } from "@smithy/protocol-http";
import type { BuildMiddleware } from "@smithy/types";
import { createHash } from "node:crypto";

/**
 * DeleteObjects must carry a body checksum. The SDK sends CRC32 by default; Content-MD5 as well
 * keeps servers that only know the older header (some Ceph and GCS-compatible gateways) working.
 * Add it to a DeleteObjectsCommand's stack at { step: "build", priority: "low" }.
 */
export const addContentMd5: BuildMiddleware<
  DeleteObjectsCommandInput,
  DeleteObjectsCommandOutput
> = (next) => async (args) => {
  const request = args.request;
  if (HttpRequest.isInstance(request) && typeof request.body === "string") {
    request.headers["content-md5"] = createHash("md5").update(request.body).digest("base64");
  }
  return next(args);
};
