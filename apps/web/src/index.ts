export { startWebHost, type WebHost, type WebHostOptions } from "./web-host.ts";
