import { visibleText } from "@taillab/core";
import {
  EMBEDDED_TESTBED_DEFAULT_NAME,
  EMBEDDED_TESTBED_ENDPOINT_ID,
  type SavedEndpoint,
} from "@taillab/api";
import { useTranslation } from "react-i18next";

/**
 * An endpoint's name as shown: the seeded embedded testbed, still under its default name, is
 * named in the UI's language; a name someone typed is theirs and shown as it is.
 */
export function endpointDisplayName(
  endpoint: Pick<SavedEndpoint, "id" | "name">,
  testbedName: string,
): string {
  const seeded =
    endpoint.id === EMBEDDED_TESTBED_ENDPOINT_ID && endpoint.name === EMBEDDED_TESTBED_DEFAULT_NAME;
  return seeded ? testbedName : endpoint.name;
}

/** `endpointDisplayName` in the current language. */
export function useEndpointName(): (endpoint: Pick<SavedEndpoint, "id" | "name">) => string {
  const { t } = useTranslation("endpoints");
  const testbedName = t("kind.testbed");
  return (endpoint) => visibleText(endpointDisplayName(endpoint, testbedName));
}
