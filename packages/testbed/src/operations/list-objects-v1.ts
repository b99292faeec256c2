import { element, keyEncoder } from "../s3-xml.ts";
import { listBucketResultXml, listing, type Listing } from "./list-bucket-result.ts";
import { xml } from "./request-parts.ts";
import type { TestbedOperation } from "./testbed-operation.ts";

function listObjectsV1Xml(input: Listing, marker: string): string {
  const encode = keyEncoder(input.urlEncode);
  const nextMarker = input.page.lastEntry;
  return listBucketResultXml(
    input,
    element("Marker", encode(marker)) +
      (nextMarker === undefined ? "" : element("NextMarker", encode(nextMarker))),
  );
}

export const listObjectsOperation: TestbedOperation<"ListObjects"> = {
  name: "ListObjects",
  route: { names: "bucket", method: "GET" },
  profiled: "no",
  async handle(request, { store }) {
    const marker = request.target.query.get("marker") ?? "";
    return xml(listObjectsV1Xml(await listing(request, store, marker), marker));
  },
};
