import type { FeatureMessages } from "../../app/i18n.ts";

export const liveRunMessages: FeatureMessages = {
  en: {},
  "zh-CN": {},
};
