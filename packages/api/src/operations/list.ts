import type { OperationEntry } from "./operation-entry.ts";

export const listOperation = {
  name: "LIST",
  mixWord: "list",
  mixPlanning: { source: null, key: null, sizedBy: null, ranged: false, bucket: false },
  writesObject: false,
  backupsHarmless: true,
  partOperation: null,
  leavesBehind: null,
  shownAsVerb: true,
  s3benchWord: "List",
  labels: {
    en: { app: "LIST", report: "LIST (one page)" },
    zh: { app: "LIST（列举）", report: "LIST(列一页)" },
  },
} as const satisfies OperationEntry;
