import { isTiedMode, type Operation, type RunSpec } from "@taillab/api";
import { phasesThatRan } from "@taillab/core";
import { formatFixed, formatInteger, formatMs, formatSize } from "@taillab/report";
import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { pointsText } from "./points-text.ts";

/**
 * What was run, in a few lines: the phases that ran, the workload, the load model, the target
 * and the hedging.
 */
export function SpecSummary({ spec, ranOps }: { spec: RunSpec; ranOps: ReadonlySet<Operation> }) {
  const { t } = useTranslation("runs");
  const list = (values: readonly (string | number)[]) => values.join(", ");
  const items: [label: string, value: string][] = [];
  items.push([
    t("spec.phases"),
    phasesThatRan(spec.phases, ranOps)
      .map((phase) => t(`spec.phaseNames.${phase}`))
      .join(" → ") || "—",
  ]);
  if (spec.points) {
    items.push([
      t("spec.points"),
      pointsText(
        spec.points.map((point) => ({
          clients: point.clients,
          samples: point.samples,
          objectSizeBytes: point.objectSize,
        })),
        t,
      ),
    ]);
  } else {
    items.push(
      [t("spec.clients"), list(spec.clients)],
      [t("spec.samples"), spec.samples ? list(spec.samples.map(formatInteger)) : "—"],
      [t("spec.objectSize"), list(spec.objectSize.map(formatSize))],
    );
  }
  if (spec.workload) items.push([t("spec.workload"), spec.workload.ops]);
  if (spec.openLoop) {
    const open = spec.openLoop;
    items.push([
      t("spec.openLoop"),
      t(open.arrivals === "poisson" ? "spec.openLoopPoisson" : "spec.openLoopFixed", {
        rate: formatFixed(open.rateHz, Number.isInteger(open.rateHz) ? 0 : 2),
      }) +
        (open.untilStopped
          ? ` · ${t("spec.untilStopped")}`
          : open.durationMs === undefined
            ? ""
            : ` · ${t("spec.forSeconds", { seconds: formatFixed(open.durationMs / 1000, 1) })}`),
    ]);
  }
  if (spec.mode !== "normal") {
    const delay =
      spec.hedge.delay.kind === "fixed"
        ? `${formatMs(spec.hedge.delay.delayMs)} ms`
        : `p${spec.hedge.delay.percentile}`;
    items.push([
      t("spec.hedging"),
      isTiedMode(spec.mode)
        ? t(spec.mode === "tied" ? "spec.tiedText" : "spec.tiedServerText", {
            delay: `${formatMs(spec.hedge.tiedDelayMs)} ms`,
          })
        : t("spec.hedgeText", { delay, budget: formatFixed(spec.hedge.budgetPercent, 0) }),
    ]);
  }
  items.push([
    t("spec.target"),
    spec.endpoints
      ? t("spec.endpoints", { count: spec.endpoints.length })
      : t("spec.testbed", {
          count: spec.testbed.replicas,
          profile:
            typeof spec.testbed.profile === "string"
              ? spec.testbed.profile
              : t("spec.customProfile"),
        }),
  ]);
  items.push([t("spec.transport"), spec.transport]);
  if (spec.repeat > 1) items.push([t("spec.repeat"), t("spec.repeatText", { n: spec.repeat })]);
  return (
    <dl className="facts" data-testid="spec-summary">
      {items.map(([label, value]) => (
        <Fragment key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}
