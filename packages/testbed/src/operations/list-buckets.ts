import { element, OWNER, s3Document } from "../s3-xml.ts";
import { xml } from "./request-parts.ts";
import type { TestbedOperation } from "./testbed-operation.ts";

function listBucketsXml(buckets: readonly { name: string; creationDate: Date }[]): string {
  const entries = buckets.map(
    (bucket) =>
      `<Bucket>${element("Name", bucket.name)}${element("CreationDate", bucket.creationDate.toISOString())}</Bucket>`,
  );
  return s3Document(
    "ListAllMyBucketsResult",
    `<Owner>${OWNER}</Owner><Buckets>${entries.join("")}</Buckets>`,
  );
}

export const listBucketsOperation: TestbedOperation<"ListBuckets"> = {
  name: "ListBuckets",
  route: { names: "service", method: "GET" },
  profiled: "no",
  async handle(_request, { store }) {
    return xml(listBucketsXml(await store.listBuckets()));
  },
};
