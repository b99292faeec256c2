export { freePort, freePorts } from "./free-port.ts";
export { startMinio, type MinioServer } from "./minio-server.ts";
export { startVersitygw, type VersitygwServer } from "./versitygw-server.ts";
export { CHROMIUM_ARGS, SYSTEM_CHROMIUM } from "./system-chromium.ts";
export {
  cjkTextNotDrawnBy,
  fontsDrawing,
  latinOnlyFontconfig,
  type CjkFontMiss,
} from "./chromium-fonts.ts";
export {
  KUBERNETES_CONTEXT,
  startControlPlane,
  type ControlPlaneOptions,
  type KubernetesControlPlane,
} from "./kubernetes-control-plane.ts";
export { startNodeAgent, type NodeAgent, type NodeAgentOptions } from "./node-agent.ts";
export { KWOK_HOLD_RUNNING, startKwokCluster, type KwokCluster } from "./kwok-cluster.ts";
export { assertPortsFree } from "./free-port.ts";
export {
  localTaillabEntrypoint,
  startTaillabNodeAgent,
  TAILLAB_TEST_IMAGE,
} from "./taillab-image.ts";
export { startDrippingProxy, type DrippingProxy } from "./dripping-proxy.ts";
export { selfSignedCertificate, type SelfSignedCertificate } from "./self-signed-certificate.ts";
export { fuzzSeed } from "./fuzz-seed.ts";
export { heldCleanup, type HeldCleanup } from "./held-cleanup.ts";
export {
  startKnownLatencyServer,
  startWireProxy,
  type KnownLatencyModel,
  type TruthProcess,
  type WireEntry,
  type WireProxy,
} from "./truth-harness.ts";
export {
  startHostileAnswerServer,
  type HostileAnswer,
  type HostileAnswerOptions,
  type HostileAnswerServer,
  type HostileOperation,
} from "./hostile-answer-server.ts";
export {
  CRAFTED_SHARD_FOLDERS,
  type CraftedShardFolder,
  type ShardFolderObjects,
} from "./crafted-shard-folders.ts";
export {
  startHostileListingServer,
  type HostileListingServer,
  type ListingFault,
} from "./hostile-listing-server.ts";
export { startS3rver, type S3rverServer } from "./s3rver-server.ts";
export { readJunitXml, type JunitCase } from "./junit-shape.ts";
export { startPrometheus, type PrometheusServer } from "./prometheus-server.ts";
export { holdProcessOffCpu, type ProcessFreezer } from "./process-freezer.ts";
