import type { OperationEntry } from "./operation-entry.ts";

export const uploadPartOperation = {
  name: "UPLOAD_PART",
  mixWord: null,
  mixPlanning: null,
  writesObject: false,
  backupsHarmless: false,
  partOperation: null,
  leavesBehind: null,
  shownAsVerb: false,
  s3benchWord: "Upload part",
  labels: {
    en: { app: "upload part", report: "upload part (of a multipart upload)" },
    zh: { app: "上传分段", report: "上传分段" },
  },
} as const satisfies OperationEntry;
