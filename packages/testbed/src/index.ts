export { startTestbed } from "./testbed-server.ts";
export type { StoreOptions, Testbed, TestbedOptions, TestbedStats } from "./testbed-server.ts";
export type {
  InjectedFault,
  InterceptDecision,
  InterceptedRequest,
  RequestInterceptor,
} from "./request-interceptor.ts";
export type { S3Operation } from "./s3-route.ts";
export type { Credentials } from "./sigv4-verifier.ts";
