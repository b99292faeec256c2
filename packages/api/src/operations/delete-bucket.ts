import type { OperationEntry } from "./operation-entry.ts";

export const deleteBucketOperation = {
  name: "DELETE_BUCKET",
  mixWord: "delete-bucket",
  mixPlanning: { source: null, key: null, sizedBy: null, ranged: false, bucket: true },
  writesObject: false,
  backupsHarmless: false,
  partOperation: null,
  leavesBehind: "buckets",
  shownAsVerb: false,
  s3benchWord: "Delete bucket",
  labels: {
    en: { app: "delete bucket", report: "delete bucket" },
    zh: { app: "删除桶", report: "删除桶" },
  },
} as const satisfies OperationEntry;
