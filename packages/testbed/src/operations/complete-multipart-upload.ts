import { headerText } from "../http-headers.ts";
import { planCompletion } from "../multipart-completion.ts";
import { completeMultipartUploadXml, parseCompleteMultipartUpload } from "../s3-xml.ts";
import { bucketOf, keyOf, uploadIdOf, xml } from "./request-parts.ts";
import type { TestbedOperation } from "./testbed-operation.ts";

export const completeMultipartUploadOperation: TestbedOperation<"CompleteMultipartUpload"> = {
  name: "CompleteMultipartUpload",
  route: { names: "object", method: "POST", query: ["uploadId"] },
  profiled: "timing",
  async handle(request, { store, minPartSizeBytes }) {
    const bucket = bucketOf(request);
    const key = keyOf(request);
    const uploadId = uploadIdOf(request, "CompleteMultipartUpload");
    const requested = parseCompleteMultipartUpload((await request.readBody()).toString("utf8"));
    const object = await store.completeMultipartUpload(bucket, key, uploadId, (parts) =>
      planCompletion(parts, requested, minPartSizeBytes),
    );
    const host = headerText(request.headers, "host") ?? "localhost";
    const location = `http://${host}${request.target.rawPath}`;
    return xml(completeMultipartUploadXml({ location, bucket, key, etag: object.etag }));
  },
};
