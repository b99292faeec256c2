import { describe, expect, it } from "vitest";
import { DEFAULT_POD_SETTINGS } from "./kubernetes-defaults.ts";
import { parsePodSettings } from "./pod-settings-text.ts";

describe("the pods' settings as written on the command line and in the app", () => {
  it("read kubectl's forms", () => {
    expect(
      parsePodSettings({
        requests: "cpu=500m, memory=1Gi",
        limits: "memory=1Gi",
        nodeSelector: "pool=bench",
        tolerations: "dedicated=bench:NoSchedule,spot,gpu:NoExecute",
        imagePullSecrets: "regcred, mirror",
        spread: "require",
      }).settings,
    ).toEqual({
      requests: { cpu: "500m", memory: "1Gi" },
      limits: { memory: "1Gi" },
      nodeSelector: { pool: "bench" },
      tolerations: [
        { key: "dedicated", operator: "Equal", value: "bench", effect: "NoSchedule" },
        { key: "spot", operator: "Exists" },
        { key: "gpu", operator: "Exists", effect: "NoExecute" },
      ],
      imagePullSecrets: ["regcred", "mirror"],
      spread: "require",
    });
    expect(parsePodSettings(DEFAULT_POD_SETTINGS).problems).toEqual([]);
  });

  it("name the field of an entry that is not in its form", () => {
    const { problems } = parsePodSettings({
      ...DEFAULT_POD_SETTINGS,
      requests: "cpu",
      nodeSelector: "=ssd",
      tolerations: ":NoSchedule",
    });
    expect(problems).toEqual([
      { field: "requests", message: '"cpu" is not KEY=VALUE (e.g. cpu=1,memory=1Gi)' },
      { field: "nodeSelector", message: '"=ssd" is not KEY=VALUE (e.g. disktype=ssd)' },
      {
        field: "tolerations",
        message:
          '":NoSchedule" has no taint key (expected KEY[=VALUE][:EFFECT], e.g. dedicated=bench:NoSchedule)',
      },
    ]);
  });
});
