/**
 * Stands in for a TailLab shard in the distributed-run tests: reads what the Job hands a shard
 * (--shard I/N, --start-at, --results, credentials in the env), prints it as one JSON line and
 * exits 3 — "do not retry this index" — when I is the --fail-index it was given. Shard
 * --hold-index waits for its SIGTERM instead (a pod to evict), the first time only: it appends a
 * line to the --hold-once file each time it runs, and holds when it finds the file empty.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    "fail-index": { type: "string" },
    "hold-index": { type: "string" },
    "hold-once": { type: "string" },
    shard: { type: "string" },
    "start-at": { type: "string" },
    results: { type: "string" },
  },
});
const [index, shards] = (values.shard ?? "").split("/").map(Number);
process.stdout.write(
  `${JSON.stringify({
    index,
    shards,
    startAt: values["start-at"],
    results: values.results,
    accessKeyId: process.env.AWS_ACCESS_KEY_ID,
    hasSecret: Boolean(process.env.AWS_SECRET_ACCESS_KEY),
  })}\n`,
);
const holdOnce = values["hold-once"];
if (holdOnce !== undefined && Number(values["hold-index"]) === index) {
  const runsBefore = readFileSync(holdOnce, "utf8");
  appendFileSync(holdOnce, `ran\n`);
  // No SIGTERM handler: the signal ends the process, as it would a container's.
  if (runsBefore === "") setInterval(() => {}, 60_000);
}
process.exitCode =
  values["fail-index"] !== undefined && Number(values["fail-index"]) === index ? 3 : 0;
