import { partsPage, type PartsPage } from "../multipart-listing.ts";
import { element, OWNER, s3Document } from "../s3-xml.ts";
import type { MultipartUpload } from "../upload-index.ts";
import { bucketOf, keyOf, parseCount, parsePageSize, uploadIdOf, xml } from "./request-parts.ts";
import type { TestbedOperation } from "./testbed-operation.ts";

function listPartsXml(
  upload: MultipartUpload,
  query: { partNumberMarker: number; maxParts: number },
  page: PartsPage<{ partNumber: number; etag: string; sizeBytes: number; lastModified: Date }>,
): string {
  const parts = page.parts.map(
    (part) =>
      `<Part>${element("PartNumber", part.partNumber)}` +
      `${element("LastModified", part.lastModified.toISOString())}${element("ETag", part.etag)}` +
      `${element("Size", part.sizeBytes)}</Part>`,
  );
  return s3Document(
    "ListPartsResult",
    `${element("Bucket", upload.bucket)}${element("Key", upload.key)}` +
      `${element("UploadId", upload.uploadId)}` +
      `<Initiator>${OWNER}</Initiator><Owner>${OWNER}</Owner><StorageClass>STANDARD</StorageClass>` +
      `${element("PartNumberMarker", query.partNumberMarker)}` +
      (page.nextPartNumberMarker === undefined
        ? ""
        : element("NextPartNumberMarker", page.nextPartNumberMarker)) +
      `${element("MaxParts", query.maxParts)}${element("IsTruncated", page.isTruncated)}` +
      parts.join(""),
  );
}

export const listPartsOperation: TestbedOperation<"ListParts"> = {
  name: "ListParts",
  route: { names: "object", method: "GET", query: ["uploadId"] },
  profiled: "no",
  async handle(request, { store }) {
    const { query } = request.target;
    const uploadId = uploadIdOf(request, "ListParts");
    const partNumberMarker = parseCount(query, "part-number-marker", 0);
    const maxParts = parsePageSize(query, "max-parts");
    const { upload, parts } = await store.listParts(bucketOf(request), keyOf(request), uploadId);
    const page = partsPage(parts, partNumberMarker, maxParts);
    return xml(listPartsXml(upload, { partNumberMarker, maxParts }, page));
  },
};
