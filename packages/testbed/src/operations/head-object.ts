import { readObject, refuseReadByPartNumber } from "./get-object.ts";
import type { TestbedOperation } from "./testbed-operation.ts";

export const headObjectOperation: TestbedOperation<"HeadObject"> = {
  name: "HeadObject",
  route: { names: "object", method: "HEAD", refuse: refuseReadByPartNumber },
  profiled: "timing",
  handle: (request, { store }) => readObject(request, store, false),
};
