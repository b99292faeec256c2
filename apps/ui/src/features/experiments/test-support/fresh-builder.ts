import { afterEach, beforeEach, vi } from "vitest";
import { savedEndpoint, testbedEndpoint } from "../../../shared/test-support/sample-data.ts";
import { useEndpoints } from "../../endpoints/endpoints-store.ts";
import { useLiveRun } from "../../live-run/live-run-store.ts";
import { useExperimentBuilder } from "../experiment-builder-store.ts";
import { useExperiments } from "../experiments-store.ts";
import { useGuide } from "../guide-store.ts";

/**
 * Each test of the builder starts from fresh stores, with a MinIO and a testbed endpoint saved
 * and fake timers (the preview waits for a pause in typing).
 */
export function freshBuilderEachTest(timers?: Parameters<typeof vi.useFakeTimers>[0]): void {
  const initialBuilder = useExperimentBuilder.getState();
  const initialExperiments = useExperiments.getState();
  const initialLive = useLiveRun.getState();
  const initialGuide = useGuide.getState();
  beforeEach(() => {
    sessionStorage.clear();
    useGuide.setState(initialGuide, true);
    vi.useFakeTimers(timers);
    useExperimentBuilder.setState(initialBuilder, true);
    useExperiments.setState(initialExperiments, true);
    useLiveRun.setState(initialLive, true);
    useEndpoints.setState({ endpoints: [savedEndpoint(), testbedEndpoint()], loaded: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}
