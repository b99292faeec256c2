import { uploadsPage } from "../multipart-listing.ts";
import { S3Error } from "../s3-error.ts";
import { listMultipartUploadsXml } from "../s3-xml.ts";
import { bucketOf, parsePageSize, parseUrlEncoding, xml } from "./request-parts.ts";
import type { TestbedOperation } from "./testbed-operation.ts";

export const listMultipartUploadsOperation: TestbedOperation<"ListMultipartUploads"> = {
  name: "ListMultipartUploads",
  route: { names: "bucket", method: "GET", query: ["uploads"] },
  profiled: "no",
  async handle(request, { store }) {
    const bucket = bucketOf(request);
    const { query } = request.target;
    if (query.get("delimiter")) {
      throw new S3Error(
        "NotImplemented",
        "The testbed does not implement a delimiter in ListMultipartUploads",
      );
    }
    const listQuery = {
      prefix: query.get("prefix") ?? "",
      keyMarker: query.get("key-marker") ?? "",
      uploadIdMarker: query.get("upload-id-marker") ?? "",
      maxUploads: parsePageSize(query, "max-uploads"),
      urlEncode: parseUrlEncoding(query),
    };
    const page = uploadsPage(await store.listMultipartUploads(bucket), listQuery);
    return xml(listMultipartUploadsXml(bucket, listQuery, page));
  },
};
