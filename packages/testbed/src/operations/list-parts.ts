import { partsPage } from "../multipart-listing.ts";
import { listPartsXml } from "../s3-xml.ts";
import { bucketOf, keyOf, parseCount, parsePageSize, uploadIdOf, xml } from "./request-parts.ts";
import type { TestbedOperation } from "./testbed-operation.ts";

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
