export { freePort, freePorts } from "./free-port.ts";
export { startMinio, type MinioServer } from "./minio-server.ts";
export { startVersitygw, type VersitygwServer } from "./versitygw-server.ts";
export { CHROMIUM_ARGS, SYSTEM_CHROMIUM } from "./system-chromium.ts";
