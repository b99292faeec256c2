import { bucketOf, keyOf } from "./request-parts.ts";
import type { TestbedOperation } from "./testbed-operation.ts";

export const deleteObjectOperation: TestbedOperation<"DeleteObject"> = {
  name: "DeleteObject",
  route: { names: "object", method: "DELETE" },
  profiled: "timing",
  async handle(request, { store }) {
    await store.deleteObject(bucketOf(request), keyOf(request));
    return { status: 204, headers: {} };
  },
};
