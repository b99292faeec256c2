/**
 * Tied requests as The Tail at Scale means them (request mode `tied-server`): both copies carry
 * the same tie id; the replica that starts serving one tells the others, which drop the twin
 * still waiting in their queue and answer it at once with TIE_DROPPED_CODE.
 */

/** The header a tied copy carries: the same value on both copies, unique per request. */
export const TIE_ID_HEADER = "x-taillab-tie-id";
/** The S3 error code (status TIE_DROPPED_STATUS) of a copy dropped because its twin started first. */
export const TIE_DROPPED_CODE = "TiedTwinStarted";
export const TIE_DROPPED_STATUS = 409;
