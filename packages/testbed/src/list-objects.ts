/**
 * One page of a bucket listing, as ListObjects (V1 and V2) return it. Pure: the stores hand in
 * their keys, sorted with `compareUtf8`.
 */

export interface ListRequest {
  prefix: string;
  /** "" when the request has no delimiter. */
  delimiter: string;
  maxKeys: number;
  /**
   * Only entries (keys or common prefixes) after this one: start-after, a V1 marker, or the last
   * entry of the previous page. Comparing entries rather than keys is what lets a page end on a
   * common prefix and the next page resume after all of its keys.
   */
  after: string;
}

export interface ListPage {
  keys: string[];
  commonPrefixes: string[];
  isTruncated: boolean;
  /** The last entry of a truncated page: where the next page starts. */
  lastEntry: string | undefined;
}

/**
 * S3 lists keys in UTF-8 byte order, which is Unicode code point order. JavaScript compares
 * UTF-16 code units, which differs only when a surrogate (an astral character) meets a code unit
 * at or above U+E000, so those are moved past each other.
 */
export function compareUtf8(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

function codePointRank(codeUnit: number): number {
  if (codeUnit < 0xd800) return codeUnit;
  return codeUnit >= 0xe000 ? codeUnit - 0x800 : codeUnit + 0x2000;
}

/** Index of the first key that sorts after `target` (or at it, when `inclusive`). */
function searchSorted(keys: readonly string[], target: string, inclusive: boolean): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const order = compareUtf8(keys[middle] as string, target);
    if (order < 0 || (order === 0 && !inclusive)) low = middle + 1;
    else high = middle;
  }
  return low;
}

export function listPage(sortedKeys: readonly string[], request: ListRequest): ListPage {
  const { prefix, delimiter, maxKeys, after } = request;
  const page: ListPage = { keys: [], commonPrefixes: [], isTruncated: false, lastEntry: undefined };
  if (maxKeys <= 0) return page;
  let index = searchSorted(sortedKeys, prefix, true);
  if (after !== "" && compareUtf8(after, prefix) >= 0) {
    index = searchSorted(sortedKeys, after, false);
  }
  let count = 0;
  let lastCommonPrefix: string | undefined;
  for (; index < sortedKeys.length; index++) {
    const key = sortedKeys[index] as string;
    if (!key.startsWith(prefix)) break;
    const cut = delimiter === "" ? -1 : key.indexOf(delimiter, prefix.length);
    const commonPrefix = cut === -1 ? undefined : key.slice(0, cut + delimiter.length);
    if (commonPrefix !== undefined) {
      if (commonPrefix === lastCommonPrefix || compareUtf8(commonPrefix, after) <= 0) continue;
      lastCommonPrefix = commonPrefix;
    }
    if (count === maxKeys) {
      page.isTruncated = true;
      break;
    }
    if (commonPrefix === undefined) page.keys.push(key);
    else page.commonPrefixes.push(commonPrefix);
    page.lastEntry = commonPrefix ?? key;
    count++;
  }
  if (!page.isTruncated) page.lastEntry = undefined;
  return page;
}
