import { cleanupLeftNothing, type RunCleanup, type RunDetail } from "@taillab/api";
import { killedShardLeftovers, leftoverStateOf, visibleText } from "@taillab/core";
import { formatInteger } from "@taillab/report";
import { useTranslation } from "react-i18next";
import { useRunDetail } from "./run-detail-store.ts";

/**
 * What the run may have left on its server (objects under its prefix, open uploads, workload
 * buckets; a distributed run's killed shards' objects under theirs), and a button that removes
 * it — never anything else — as `taillab cleanup` does.
 */
export function LeftoversBanner({ detail }: { detail: RunDetail }) {
  const { t } = useTranslation("runs");
  const { removing, result, error } = useRunDetail((state) => state.leftovers);
  const { meta } = detail;
  const state = leftoverStateOf(meta, meta.status);
  const place = {
    prefix: meta.keyPrefix,
    bucket: meta.spec.bucket,
    url: meta.spec.endpoints?.[0]?.url ?? "",
  };
  // The latest cleanup, the button's or the stored one: where the bucket is gone, nothing of
  // the run can be left in it, whatever it removed.
  const bucketGone = (result ?? meta.cleanup)?.bucketGone === true;
  const gone = bucketGone ? t("leftovers.bucketGone", place) : null;
  const done = gone ? (
    <div className="banner" role="status" data-testid="leftovers-bucket-gone">
      {gone}
    </div>
  ) : result && cleanupLeftNothing(result) ? (
    <div className="banner" role="status" data-testid="leftovers-removed">
      {t("leftovers.removed", removedCounts(result))}
    </div>
  ) : null;
  // A cleanup the button just ran removed every shard's objects too.
  const cleanup = result ?? meta.cleanup;
  const killed = killedShardLeftovers({ ...meta, cleanup }, detail.summary).map(
    ({ index, objects, keyPrefix }) =>
      t("leftovers.killedShard", {
        shard: index,
        objects: formatInteger(objects),
        prefix: keyPrefix,
        bucket: meta.spec.bucket,
      }),
  );
  if (state.kind === "none" && killed.length === 0) return done;
  const text = [
    state.kind === "left"
      ? [gone, t("leftovers.left", { ...leftCounts(state.cleanup), ...place })]
          .filter(Boolean)
          .join(" ")
      : state.kind === "possible"
        ? t(state.why === "kept" ? "leftovers.kept" : "leftovers.endedEarly", place)
        : "",
    ...killed,
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <div
      className="banner warning"
      role="status"
      data-testid="leftovers-banner"
      data-kind={state.kind === "none" ? "killed-shards" : state.kind}
    >
      {text}{" "}
      <button
        type="button"
        className="small"
        data-testid="remove-leftovers"
        disabled={removing}
        onClick={() => void useRunDetail.getState().removeLeftovers()}
      >
        {removing ? t("leftovers.removing") : t("leftovers.remove")}
      </button>
      {error ? (
        <div className="error" role="alert" data-testid="leftovers-error">
          {error}
        </div>
      ) : null}
    </div>
  );
}

function leftCounts(cleanup: RunCleanup) {
  const [error = "?"] = Object.entries(cleanup.errorsByCode)
    .sort(([, a], [, b]) => b - a)
    .map(([code]) => visibleText(code));
  return {
    objects: formatInteger(cleanup.objectsLeft),
    uploads: formatInteger(cleanup.uploadsLeft),
    buckets: formatInteger(cleanup.bucketsLeft.length),
    error,
  };
}

function removedCounts(cleanup: RunCleanup) {
  return {
    objects: formatInteger(cleanup.removed.objects),
    uploads: formatInteger(cleanup.removed.uploads),
    buckets: formatInteger(cleanup.removed.buckets),
  };
}
