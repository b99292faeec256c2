export { freePort, freePorts } from "./free-port.ts";
export { startMinio, type MinioOptions, type MinioServer } from "./minio-server.ts";
