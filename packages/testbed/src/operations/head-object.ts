import { readObject } from "./get-object.ts";
import type { TestbedOperation } from "./testbed-operation.ts";

export const headObjectOperation: TestbedOperation<"HeadObject"> = {
  name: "HeadObject",
  handle: (request, { store }) => readObject(request, store, false),
};
