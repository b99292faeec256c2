import type { OperationEntry } from "./operation-entry.ts";

export const multipartOperation = {
  name: "MULTIPART",
  mixWord: "multipart",
  mixPlanning: { source: null, key: "new", sizedBy: "key", ranged: false, bucket: false },
  writesObject: true,
  backupsHarmless: true,
  partOperation: "UPLOAD_PART",
  leavesBehind: "uploads",
  shownAsVerb: false,
  s3benchWord: "Multipart upload",
  labels: {
    en: { app: "multipart upload", report: "multipart upload" },
    zh: { app: "分段上传", report: "分段上传" },
  },
} as const satisfies OperationEntry;
