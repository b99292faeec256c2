import type { ClientSecond } from "@taillab/api";
import { clientBoundSpans, type ClientBoundSpan } from "@taillab/core";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";

/**
 * The stretches of a phase whose client was the bottleneck (core's clientBoundSpans), and their
 * legend entry, for a percentiles-over-time chart: live or stored.
 */
export function useClientBound(seconds: readonly ClientSecond[]): {
  spans: ClientBoundSpan[];
  legend: string;
} {
  const { t } = useTranslation("client");
  const spans = useMemo(() => clientBoundSpans(seconds), [seconds]);
  return { spans, legend: t("boundLegend") };
}

const secondsText = (ms: number) => (ms / 1000).toFixed(0);

/** The same stretches as a line under the chart, in seconds since the run started. */
export function ClientBoundNote({
  spans,
  testId,
}: {
  spans: readonly ClientBoundSpan[];
  testId: string;
}) {
  const { t } = useTranslation("client");
  if (spans.length === 0) return null;
  const text = spans
    .map((span) => `${secondsText(span.fromMs)}–${secondsText(span.toMs)} s`)
    .join(", ");
  return (
    <p className="muted small client-bound-note" data-testid={testId} data-spans={spans.length}>
      {t("boundSeconds", { spans: text })}
    </p>
  );
}
