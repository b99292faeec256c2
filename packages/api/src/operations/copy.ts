import type { OperationEntry } from "./operation-entry.ts";

export const copyOperation = {
  name: "COPY",
  mixWord: "copy",
  mixPlanning: { source: "prepared", key: "new", sizedBy: "source", ranged: false, bucket: false },
  writesObject: true,
  backupsHarmless: true,
  partOperation: null,
  leavesBehind: null,
  shownAsVerb: true,
  s3benchWord: "Copy",
  labels: {
    en: { app: "COPY", report: "COPY" },
    zh: { app: "COPY(复制)", report: "COPY(复制)" },
  },
} as const satisfies OperationEntry;
