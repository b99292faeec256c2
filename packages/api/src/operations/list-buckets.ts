import type { OperationEntry } from "./operation-entry.ts";

export const listBucketsOperation = {
  name: "LIST_BUCKETS",
  mixWord: "list-buckets",
  mixPlanning: { source: null, key: null, sizedBy: null, ranged: false, bucket: false },
  writesObject: false,
  backupsHarmless: true,
  partOperation: null,
  leavesBehind: null,
  shownAsVerb: false,
  s3benchWord: "List buckets",
  labels: {
    en: { app: "list buckets", report: "list buckets" },
    zh: { app: "列举桶", report: "列举桶" },
  },
} as const satisfies OperationEntry;
