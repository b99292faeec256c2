import { createHash, createHmac, type Hash, type Hmac } from "node:crypto";
import type { Checksum, SourceData } from "@smithy/types";

/**
 * Objects go up to S3's 5 GiB in one buffer, but Node's crypto takes less in one call:
 * Hash.update throws "data is too long" from 2 GiB, and randomFillSync aborts the whole process
 * (a native assertion, exit 134) from 4 GiB. Such buffers are handed over in pieces of this size.
 */
const CRYPTO_PIECE_BYTES = 1024 ** 3;

export function* piecesOf(data: Uint8Array): Generator<Uint8Array> {
  for (let start = 0; start < data.length; start += CRYPTO_PIECE_BYTES) {
    yield data.subarray(start, start + CRYPTO_PIECE_BYTES);
  }
}

export function updateInPieces<H extends Hash | Hmac>(hash: H, data: Uint8Array): H {
  for (const piece of piecesOf(data)) hash.update(piece);
  return hash;
}

/**
 * The SDK's SHA-256 (S3ClientConfig.sha256): SigV4 over http hashes a PUT's whole payload in
 * one update, which failed every PUT of 2 GiB or more with "data is too long". With a secret it
 * is the signer's HMAC.
 */
export class PiecewiseSha256 implements Checksum {
  readonly #secret: SourceData | undefined;
  #hash: Hash | Hmac;

  constructor(secret?: SourceData) {
    this.#secret = secret;
    this.#hash = this.#start();
  }

  update(data: Uint8Array): void {
    updateInPieces(this.#hash, data);
  }

  async digest(): Promise<Uint8Array> {
    // As the SDK's own: a plain hash may be read again and updated further, an HMAC not.
    const hash = "copy" in this.#hash ? this.#hash.copy() : this.#hash;
    return new Uint8Array(hash.digest());
  }

  reset(): void {
    this.#hash = this.#start();
  }

  #start(): Hash | Hmac {
    if (!this.#secret) return createHash("sha256");
    const key =
      typeof this.#secret === "string"
        ? this.#secret
        : ArrayBuffer.isView(this.#secret)
          ? new Uint8Array(this.#secret.buffer, this.#secret.byteOffset, this.#secret.byteLength)
          : new Uint8Array(this.#secret);
    return createHmac("sha256", key);
  }
}
