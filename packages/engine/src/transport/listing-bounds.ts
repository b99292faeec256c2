import { createHash } from "node:crypto";

/** Why a listing was given up before its server said it had ended. */
export type EndlessListing = "repeats" | "tooLong";

/** The code a listing given up is counted under (a cleanup's errorsByCode). */
export const ENDLESS_LISTING_CODE = "EndlessListing";

export interface ListingLimits {
  maxPages: number;
  maxMs: number;
}

/**
 * A listing's pages are followed this far at most: 20 000 pages of 1 000 keys, or 15 minutes.
 * A server whose listing is always truncated would otherwise keep a cleanup paging (and holding
 * what it listed) for ever.
 */
export const LISTING_LIMITS: ListingLimits = { maxPages: 20_000, maxMs: 15 * 60_000 };

/**
 * Watches one paged listing: each page must lead somewhere it has not been (a continuation token
 * or marker never seen before, and keys past the previous page's), within the page and time
 * limits. A server that answers the same page again, or never ends, is caught here.
 */
export class ListingBounds {
  private readonly seenCursors = new Set<string>();
  private readonly startedMs = performance.now();
  private pages = 0;
  private lastKey: string | null = null;

  private readonly limits: ListingLimits;

  constructor(limits: ListingLimits = LISTING_LIMITS) {
    this.limits = limits;
  }

  /** Pages read so far. */
  get pageCount(): number {
    return this.pages;
  }

  /**
   * After a page that says more follow: null to go on to `cursor`, or why not. `keys` are the
   * page's keys when the listing is in strictly increasing key order (ListObjectsV2).
   */
  next(cursor: string, keys: readonly string[] = []): EndlessListing | null {
    this.pages += 1;
    // A digest: a hostile server's tokens may be long, and 20 000 of them are kept.
    const digest = createHash("sha256").update(cursor).digest("base64");
    if (this.seenCursors.has(digest)) return "repeats";
    this.seenCursors.add(digest);
    const [first] = keys;
    if (first !== undefined && this.lastKey !== null && !utf8After(first, this.lastKey)) {
      return "repeats";
    }
    this.lastKey = keys.at(-1) ?? this.lastKey;
    const overLimit =
      this.pages >= this.limits.maxPages || performance.now() - this.startedMs >= this.limits.maxMs;
    return overLimit ? "tooLong" : null;
  }
}

/** Whether `key` sorts after `previous` in S3's order (UTF-8 bytes). */
function utf8After(key: string, previous: string): boolean {
  return Buffer.compare(Buffer.from(key), Buffer.from(previous)) > 0;
}
