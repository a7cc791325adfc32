/**
 * The seeded random source of the generated data: sfc32 (Chris Doty-Humphrey's small fast counting
 * generator, 128 bits of state), seeded by the 128-bit cyrb128 hash of the seed text and a stream
 * number. Each conversation draws from its own stream (its index), so any one of them is generated
 * again on its own, in any order, identically: the sandbox keeps only what it searches and sorts by,
 * and generates an export again when it is asked for. With 128 bits of state, two streams of one
 * seed do not meet (a 32-bit state would give duplicate identifiers at 100,000 conversations).
 */
export class Random {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  /** The stream `stream` of the seed `seed`: the same pair always gives the same sequence. */
  constructor(seed: string, stream: number) {
    [this.#a, this.#b, this.#c, this.#d] = cyrb128(`${seed}\u0000${stream}`);
    for (let round = 0; round < 12; round++) this.next();
  }

  /** A 32-bit unsigned integer. */
  next(): number {
    const result = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + result) | 0;
    return result >>> 0;
  }

  /** An integer from `min` to `max`, both included. */
  int(min: number, max: number): number {
    return min + Math.floor((this.next() / 0x1_0000_0000) * (max - min + 1));
  }

  /** One element of a non-empty list. */
  pick<T>(values: readonly T[]): T {
    return values[this.int(0, values.length - 1)]!;
  }

  /** `count` distinct elements of a list, in a random order. */
  sample<T>(values: readonly T[], count: number): T[] {
    const pool = [...values];
    for (let index = pool.length - 1; index > 0; index--) {
      const other = this.int(0, index);
      [pool[index], pool[other]] = [pool[other]!, pool[index]!];
    }
    return pool.slice(0, count);
  }

  /** `true` with the given probability. */
  chance(probability: number): boolean {
    return this.next() / 0x1_0000_0000 < probability;
  }

  /** A version-4 UUID. */
  uuid(): string {
    const a = this.next();
    const b = this.next();
    const c = this.next();
    const d = this.next();
    // Version 4 in the high nibble of the third group, the variant (10xx) in the high bits of the fourth.
    writeHex32(0, a);
    writeHex16(9, b >>> 16);
    writeHex16(14, (b & 0x0fff) | 0x4000);
    writeHex16(19, ((c >>> 16) & 0x3fff) | 0x8000);
    writeHex16(24, c & 0xffff);
    writeHex32(28, d);
    return textOf(uuidBytes);
  }

  /** Draws what `uuid` draws, and writes nothing: the same sequence afterwards, without the text. */
  skipUuid(): void {
    for (let draw = 0; draw < 4; draw++) this.next();
  }
}

/**
 * A UUID's 36 characters, written byte by byte from a table of each byte's two hex digits into one buffer and read
 * as one string: joined from pieces, each UUID was a tree of a dozen short strings, flattened again wherever it was
 * hashed or written, and the index's 100,000 identifiers held about three times their size until then.
 */
const uuidBytes = new Uint8Array(36).fill(0x2d);
/** The two hex digits of each byte, as character codes: byte `b` at `2b` and `2b + 1`. */
const hexCodes = new Uint8Array(512);
for (let byte = 0; byte < 256; byte++) {
  const digits = byte.toString(16).padStart(2, "0");
  hexCodes[2 * byte] = digits.charCodeAt(0);
  hexCodes[2 * byte + 1] = digits.charCodeAt(1);
}

/** Writes the four hex digits of a 16-bit value into the UUID's bytes at `at`. */
function writeHex16(at: number, value: number): void {
  const high = 2 * ((value >>> 8) & 0xff);
  const low = 2 * (value & 0xff);
  uuidBytes[at] = hexCodes[high]!;
  uuidBytes[at + 1] = hexCodes[high + 1]!;
  uuidBytes[at + 2] = hexCodes[low]!;
  uuidBytes[at + 3] = hexCodes[low + 1]!;
}

/** Writes the eight hex digits of a 32-bit value into the UUID's bytes at `at`. */
function writeHex32(at: number, value: number): void {
  writeHex16(at, value >>> 16);
  writeHex16(at + 4, value & 0xffff);
}

/** Node's Buffer over the UUID's bytes, when there is one: it reads them straight into one string. */
const nodeView = (
  globalThis as { Buffer?: { from(bytes: ArrayBuffer, offset: number, length: number): { toString(encoding: "latin1", start: number, end: number): string } } }
).Buffer?.from(uuidBytes.buffer, 0, uuidBytes.length);
/** Elsewhere (a browser), a decoder. */
const decoder = nodeView ? undefined : new TextDecoder("latin1");

/** The UUID's bytes as a string. */
function textOf(bytes: Uint8Array): string {
  return nodeView ? nodeView.toString("latin1", 0, bytes.length) : decoder!.decode(bytes);
}

/** cyrb128 (bryc): a fast 128-bit non-cryptographic hash of a text, as four 32-bit words. */
function cyrb128(text: string): [number, number, number, number] {
  let h1 = 1779033703,
    h2 = 3144134277,
    h3 = 1013904242,
    h4 = 2773480762;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = h2 ^ Math.imul(h1 ^ code, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ code, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ code, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ code, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}
