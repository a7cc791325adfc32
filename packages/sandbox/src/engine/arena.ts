/** Bytes per chunk of an arena, at most. */
const maxChunkBytes = 8 * 1024 * 1024;
/** Bytes a text takes on average, for the first chunk's size (a small arena does not allocate 8 MiB). */
const expectedTextBytes = 1024;
const encoder = new TextEncoder();

/**
 * Texts kept as UTF-8 bytes in large chunks, outside the JavaScript heap's objects: 100,000 search
 * summaries as strings made the garbage collector grow the heap to about three times their size.
 * A text is kept once and read back as a view of its bytes, which a response joins without decoding.
 */
export class TextArena {
  readonly #chunks: Uint8Array[] = [];
  readonly #chunkBytes: number;
  #used: number;

  /** An arena for about `count` texts (the first chunk's size; it grows by chunks as texts come). */
  constructor(count: number) {
    this.#chunkBytes = Math.min(maxChunkBytes, Math.max(64 * 1024, count * expectedTextBytes));
    this.#used = this.#chunkBytes;
  }

  /** Keeps `text`, and answers a view of its bytes (not to be changed). */
  add(text: string): Uint8Array {
    // UTF-8 takes at most three bytes per UTF-16 code unit.
    if (this.#used + text.length * 3 > this.#chunkBytes) {
      this.#chunks.push(new Uint8Array(Math.max(this.#chunkBytes, text.length * 3)));
      this.#used = 0;
    }
    const chunk = this.#chunks.at(-1)!;
    const { written } = encoder.encodeInto(text, chunk.subarray(this.#used));
    const view = chunk.subarray(this.#used, this.#used + written);
    this.#used += written;
    return view;
  }
}
