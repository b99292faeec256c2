/**
 * The WHATWG globals the pure packages (api, core, report) use, as much of them as they use.
 * Node and every browser have them; the pure packages compile without DOM or Node types so that
 * anything else (Buffer, process, document) is a type error there. Only tsconfig.pure.json reads
 * this file.
 */

declare class URL {
  constructor(url: string, base?: string);
  readonly hostname: string;
  readonly origin: string;
  readonly pathname: string;
  readonly protocol: string;
}

declare class TextEncoder {
  encode(input?: string): Uint8Array<ArrayBuffer>;
}
