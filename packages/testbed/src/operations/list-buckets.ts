import { listBucketsXml } from "../s3-xml.ts";
import { xml } from "./request-parts.ts";
import type { TestbedOperation } from "./testbed-operation.ts";

export const listBucketsOperation: TestbedOperation<"ListBuckets"> = {
  name: "ListBuckets",
  route: { names: "service", method: "GET" },
  profiled: "no",
  async handle(_request, { store }) {
    return xml(listBucketsXml(await store.listBuckets()));
  },
};
