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
    const [a, b, c, d] = [this.next(), this.next(), this.next(), this.next()];
    // Version 4 in the high nibble of the third group, the variant (10xx) in the high bits of the fourth.
    return `${hex32(a)}-${hex16(b >>> 16)}-${hex16(((b & 0x0fff) | 0x4000) >>> 0)}-${hex16(((c >>> 16) & 0x3fff) | 0x8000)}-${hex16(c & 0xffff)}${hex32(d)}`;
  }
}

/** Two hex digits of each byte, looked up: \`toString(16)\` and \`padStart\` were most of the generation's time. */
const byteHex = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));
const hex16 = (value: number) => byteHex[(value >>> 8) & 0xff]! + byteHex[value & 0xff]!;
const hex32 = (value: number) => hex16(value >>> 16) + hex16(value & 0xffff);

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
