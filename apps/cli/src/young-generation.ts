/**
 * Imported first by main.ts, before the rest of the command loads: the young generation keeps
 * its starting size instead of doubling while allocations come fast (V8 never gives back what
 * it grew, and loading the command's modules alone grew it). A long run's coordinator made it
 * 64 MB for garbage that dies young anyway.
 */
import { setFlagsFromString } from "node:v8";

setFlagsFromString("--semi-space-growth-factor=1");
