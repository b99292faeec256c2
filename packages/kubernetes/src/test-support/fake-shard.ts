/**
 * Stands in for a TailLab shard in the distributed-run tests: reads what the Job hands a shard
 * (--shard I/N, --start-at, --results, credentials in the env), prints it as one JSON line and
 * exits 3 — "do not retry this index" — when I is the --fail-index it was given.
 */
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    "fail-index": { type: "string" },
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
process.exitCode =
  values["fail-index"] !== undefined && Number(values["fail-index"]) === index ? 3 : 0;
