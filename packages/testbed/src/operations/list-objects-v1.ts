import { listPage } from "../list-objects.ts";
import type { ObjectStore } from "../object-store.ts";
import { listObjectsV1Xml, type ListObjectsXmlInput } from "../s3-xml.ts";
import { bucketOf, parsePageSize, parseUrlEncoding, xml } from "./request-parts.ts";
import type { OperationRequest, TestbedOperation } from "./testbed-operation.ts";

export async function listing(
  request: OperationRequest,
  store: ObjectStore,
  after: string,
): Promise<ListObjectsXmlInput> {
  const bucket = bucketOf(request);
  const { query } = request.target;
  const prefix = query.get("prefix") ?? "";
  const delimiter = query.get("delimiter") ?? "";
  const maxKeys = parsePageSize(query, "max-keys");
  const urlEncode = parseUrlEncoding(query);
  const page = listPage(await store.listKeys(bucket), { prefix, delimiter, maxKeys, after });
  const metadata = await Promise.all(page.keys.map((key) => store.headObject(bucket, key)));
  const objects = page.keys.flatMap((key, i) => {
    const entry = metadata[i];
    // Deleted between listing the keys and reading their metadata.
    return entry === undefined ? [] : [{ key, ...entry }];
  });
  return { bucket, prefix, delimiter, maxKeys, urlEncode, objects, page };
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
