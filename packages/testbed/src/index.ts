export { startTestbed } from "./testbed-server.ts";
export type {
  StoreOptions,
  Testbed,
  TestbedOptions,
  TestbedReplica,
  TestbedStats,
} from "./testbed-server.ts";
export { SERVICE_TIME_HEADER } from "./request-handler.ts";
export { createLatencyProfileInterceptor } from "./latency-profile-interceptor.ts";
export type { LatencyProfileInterceptorOptions } from "./latency-profile-interceptor.ts";
export type {
  InjectedFault,
  InterceptDecision,
  InterceptedRequest,
  RequestInterceptor,
} from "./request-interceptor.ts";
export { PROFILED_OPERATIONS, type S3Operation } from "./operations/registry.ts";
export type { Credentials } from "./sigv4-verifier.ts";
