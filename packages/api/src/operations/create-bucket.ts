import type { OperationEntry } from "./operation-entry.ts";

export const createBucketOperation = {
  name: "CREATE_BUCKET",
  mixWord: "create-bucket",
  mixPlanning: { source: null, key: null, sizedBy: null, ranged: false, bucket: true },
  writesObject: false,
  backupsHarmless: false,
  partOperation: null,
  leavesBehind: "buckets",
  shownAsVerb: false,
  s3benchWord: "Create bucket",
  labels: {
    en: { app: "create bucket", report: "create bucket" },
    zh: { app: "创建桶", report: "创建桶" },
  },
} as const satisfies OperationEntry;
