import type { OperationEntry } from "./operation-entry.ts";

export const deleteObjectsOperation = {
  name: "DELETE_OBJECTS",
  mixWord: "delete-objects",
  mixPlanning: { source: null, key: "written", sizedBy: null, ranged: false, bucket: false },
  writesObject: false,
  backupsHarmless: false,
  partOperation: null,
  leavesBehind: null,
  shownAsVerb: false,
  s3benchWord: "Delete objects (batch)",
  labels: {
    en: { app: "delete objects (batch)", report: "delete objects (batch)" },
    zh: { app: "批量删除对象", report: "批量删除对象" },
  },
} as const satisfies OperationEntry;
