import { startTestbed, type Testbed, type TestbedOptions } from "@taillab/testbed";

export type { Testbed, TestbedOptions };

/** `taillab testbed`: the embedded S3 server on its own, for other tools or other machines' runs. */
export function startTestbedServer(options: TestbedOptions): Promise<Testbed> {
  return startTestbed(options);
}
