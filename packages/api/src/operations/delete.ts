import type { OperationEntry } from "./operation-entry.ts";

export const deleteOperation = {
  name: "DELETE",
  mixWord: "delete",
  mixPlanning: { source: null, key: "written", sizedBy: null, ranged: false, bucket: false },
  writesObject: false,
  backupsHarmless: false,
  partOperation: null,
  leavesBehind: null,
  shownAsVerb: true,
  s3benchWord: "Delete",
  labels: {
    en: { app: "DELETE (cleanup)", report: "DELETE" },
    zh: { app: "DELETE（清理）", report: "DELETE(删除)" },
  },
} as const satisfies OperationEntry;
