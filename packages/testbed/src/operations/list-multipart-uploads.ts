import { uploadsPage, type UploadsPage } from "../multipart-listing.ts";
import { S3Error } from "../s3-error.ts";
import { element, keyEncoder, OWNER, s3Document } from "../s3-xml.ts";
import { bucketOf, parsePageSize, parseUrlEncoding, xml } from "./request-parts.ts";
import type { TestbedOperation } from "./testbed-operation.ts";

function listMultipartUploadsXml(
  bucket: string,
  query: {
    prefix: string;
    keyMarker: string;
    uploadIdMarker: string;
    maxUploads: number;
    urlEncode: boolean;
  },
  page: UploadsPage,
): string {
  const encode = keyEncoder(query.urlEncode);
  const uploads = page.uploads.map(
    (upload) =>
      `<Upload>${element("Key", encode(upload.key))}${element("UploadId", upload.uploadId)}` +
      `<Initiator>${OWNER}</Initiator><Owner>${OWNER}</Owner><StorageClass>STANDARD</StorageClass>` +
      `${element("Initiated", upload.initiated.toISOString())}</Upload>`,
  );
  return s3Document(
    "ListMultipartUploadsResult",
    `${element("Bucket", bucket)}${element("KeyMarker", encode(query.keyMarker))}` +
      `${element("UploadIdMarker", query.uploadIdMarker)}` +
      (page.nextKeyMarker === undefined
        ? ""
        : element("NextKeyMarker", encode(page.nextKeyMarker)) +
          element("NextUploadIdMarker", page.nextUploadIdMarker ?? "")) +
      `${element("Prefix", encode(query.prefix))}${element("MaxUploads", query.maxUploads)}` +
      `${element("IsTruncated", page.isTruncated)}` +
      (query.urlEncode ? "<EncodingType>url</EncodingType>" : "") +
      uploads.join(""),
  );
}

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
