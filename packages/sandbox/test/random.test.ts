import { describe, expect, test, vi } from "vitest";
import { Random } from "../src/data/random.ts";

describe("the seeded random source", () => {
  test("a UUID is version 4 with the RFC variant, in lower-case hex, and the same for the same seed and stream", () => {
    const uuids = Array.from({ length: 2000 }, (_, stream) => new Random("uuids", stream).uuid());
    for (const uuid of uuids) expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(uuids).size).toBe(uuids.length);
    expect(Array.from({ length: 2000 }, (_, stream) => new Random("uuids", stream).uuid())).toEqual(uuids);
  });

  test("a UUID's digits are its four draws, in order", () => {
    const drawn = new Random("digits", 7);
    const words = [drawn.next(), drawn.next(), drawn.next(), drawn.next()].map((word) => word.toString(16).padStart(8, "0"));
    const uuid = new Random("digits", 7).uuid().replaceAll("-", "");
    // Version and variant bits set, every other digit the draw's.
    const expected = words.join("").split("");
    expected[12] = "4";
    expected[16] = ((Number.parseInt(expected[16]!, 16) & 0x3) | 0x8).toString(16);
    expect(uuid).toBe(expected.join(""));
  });

  test("skipping a UUID leaves the stream where drawing it does", () => {
    const drawing = new Random("skip", 3);
    const skipping = new Random("skip", 3);
    drawing.uuid();
    skipping.skipUuid();
    expect(Array.from({ length: 8 }, () => skipping.next())).toEqual(Array.from({ length: 8 }, () => drawing.next()));
  });

  test("without Node's Buffer (a browser), the same UUIDs, read by a TextDecoder", async () => {
    const inNode = Array.from({ length: 500 }, (_, stream) => new Random("browser", stream).uuid());
    vi.stubGlobal("Buffer", undefined);
    try {
      // A module instance of its own, loaded while there is no Buffer.
      const path: string = "../src/data/random.ts?without-buffer";
      const { Random: BrowserRandom } = (await import(path)) as typeof import("../src/data/random.ts");
      expect(BrowserRandom).not.toBe(Random);
      expect(Array.from({ length: 500 }, (_, stream) => new BrowserRandom("browser", stream).uuid())).toEqual(inNode);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
