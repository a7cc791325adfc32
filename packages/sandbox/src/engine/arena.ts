/** Bytes per chunk of an arena, at most. */
const maxChunkBytes = 8 * 1024 * 1024;
/** Bytes a text takes on average, for the first chunk's size (a small arena does not allocate 8 MiB). */
const expectedTextBytes = 1024;
const encoder = new TextEncoder();

/**
 * Texts kept as UTF-8 bytes in large chunks, outside the JavaScript heap's objects: 100,000 search
 * summaries as strings made the garbage collector grow the heap to about three times their size.
 * A text is read back as a view of its bytes, which a response joins without decoding.
 */
export class TextArena {
  readonly #chunks: Uint8Array[] = [];
  readonly #chunkBytes: number;
  #used: number;
  readonly #chunkOf: Uint32Array;
  readonly #start: Uint32Array;
  readonly #length: Uint32Array;
  /** Each text's view, made when it is first read (a page's views are then made once, not per search). */
  readonly #views: (Uint8Array | undefined)[];

  /** An arena for `count` texts, numbered from 0. */
  constructor(count: number) {
    this.#chunkBytes = Math.min(maxChunkBytes, Math.max(64 * 1024, count * expectedTextBytes));
    this.#used = this.#chunkBytes;
    this.#chunkOf = new Uint32Array(count);
    this.#start = new Uint32Array(count);
    this.#length = new Uint32Array(count);
    this.#views = new Array<Uint8Array | undefined>(count);
  }

  /** Keeps `text` as text number `index`. */
  set(index: number, text: string): void {
    // UTF-8 takes at most three bytes per UTF-16 code unit.
    if (this.#used + text.length * 3 > this.#chunkBytes) {
      this.#chunks.push(new Uint8Array(Math.max(this.#chunkBytes, text.length * 3)));
      this.#used = 0;
    }
    const chunk = this.#chunks.length - 1;
    const { written } = encoder.encodeInto(text, this.#chunks[chunk]!.subarray(this.#used));
    this.#chunkOf[index] = chunk;
    this.#start[index] = this.#used;
    this.#length[index] = written;
    this.#used += written;
  }

  /** The bytes of text number `index` (a view: not to be changed). */
  bytes(index: number): Uint8Array {
    let view = this.#views[index];
    if (view === undefined) {
      const start = this.#start[index]!;
      this.#views[index] = view = this.#chunks[this.#chunkOf[index]!]!.subarray(start, start + this.#length[index]!);
    }
    return view;
  }
}
