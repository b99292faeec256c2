import { element, s3Document } from "../s3-xml.ts";
import type { MultipartUpload } from "../upload-index.ts";
import { bucketOf, checkKeyLength, contentTypeOf, keyOf, xml } from "./request-parts.ts";
import type { TestbedOperation } from "./testbed-operation.ts";

function initiateMultipartUploadXml(upload: MultipartUpload): string {
  return s3Document(
    "InitiateMultipartUploadResult",
    `${element("Bucket", upload.bucket)}${element("Key", upload.key)}` +
      element("UploadId", upload.uploadId),
  );
}

export const createMultipartUploadOperation: TestbedOperation<"CreateMultipartUpload"> = {
  name: "CreateMultipartUpload",
  route: { names: "object", method: "POST", query: ["uploads"] },
  profiled: "no",
  async handle(request, { store }) {
    const key = keyOf(request);
    checkKeyLength(key);
    await request.readBody();
    const upload = await store.createMultipartUpload(
      bucketOf(request),
      key,
      contentTypeOf(request),
    );
    return xml(initiateMultipartUploadXml(upload));
  },
};
