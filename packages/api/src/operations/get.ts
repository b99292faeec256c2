import type { OperationEntry } from "./operation-entry.ts";

export const getOperation = {
  name: "GET",
  mixWord: "get",
  mixPlanning: { source: null, key: "prepared", sizedBy: "key", ranged: true, bucket: false },
  writesObject: false,
  backupsHarmless: true,
  partOperation: null,
  leavesBehind: null,
  shownAsVerb: true,
  s3benchWord: "Read",
  labels: {
    en: { app: "GET (read)", report: "GET (read)" },
    zh: { app: "GET(读取)", report: "GET(读取)" },
  },
} as const satisfies OperationEntry;
