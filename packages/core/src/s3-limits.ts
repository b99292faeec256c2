/**
 * Amazon S3's limits, which both sides of TailLab hold to: the engine sends within them and the
 * testbed refuses past them, as S3 does.
 */

/** Part numbers of a multipart upload run from 1 to this. */
export const S3_MAX_PART_NUMBER = 10_000;
/** The least size of every part of a multipart upload but the last. */
export const S3_MIN_PART_BYTES = 5 * 1024 * 1024;
/** The most keys one DeleteObjects request names. */
export const S3_MAX_DELETE_KEYS = 1_000;
/** The longest object key, in bytes of UTF-8. */
export const S3_MAX_KEY_BYTES = 1024;
