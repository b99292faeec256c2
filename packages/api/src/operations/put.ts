import type { OperationEntry } from "./operation-entry.ts";

export const putOperation = {
  name: "PUT",
  mixWord: "put",
  mixPlanning: { source: null, key: "new", sizedBy: "key", ranged: false, bucket: false },
  writesObject: true,
  backupsHarmless: true,
  partOperation: null,
  leavesBehind: null,
  shownAsVerb: true,
  s3benchWord: "Write",
  labels: {
    en: { app: "PUT (write)", report: "PUT (write)" },
    zh: { app: "PUT(写入)", report: "PUT(写入)" },
  },
} as const satisfies OperationEntry;
