import type { OperationEntry } from "./operation-entry.ts";

export const headOperation = {
  name: "HEAD",
  mixWord: "head",
  mixPlanning: { source: null, key: "prepared", sizedBy: "key", ranged: false, bucket: false },
  writesObject: false,
  backupsHarmless: true,
  partOperation: null,
  leavesBehind: null,
  shownAsVerb: true,
  s3benchWord: "Head",
  labels: {
    en: { app: "HEAD", report: "HEAD" },
    zh: { app: "HEAD(元数据)", report: "HEAD(元数据)" },
  },
} as const satisfies OperationEntry;
