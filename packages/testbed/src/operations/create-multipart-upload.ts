import { initiateMultipartUploadXml } from "../s3-xml.ts";
import { bucketOf, checkKeyLength, contentTypeOf, keyOf, xml } from "./request-parts.ts";
import type { TestbedOperation } from "./testbed-operation.ts";

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
