import { ResponseTooLargeError } from "../errors.js";

/** The largest response body the client reads by default: 16 MiB (our choice, far above a page of 500 summaries). */
export const defaultMaxResponseBytes = 2 ** 24;

/**
 * `response`, its body read within `maxBytes`: its `text`, `json` and `bytes` read the stream
 * themselves, counting, and fail with `ResponseTooLargeError` once more than `maxBytes` bytes have
 * arrived; the rest is never read (the stream is cancelled, which closes the connection). `label`
 * starts the message, e.g. `GET /api/v2/channels/conversations`. The same object is returned, its three
 * readers defined on it (a new Response around a counting stream cost a search twice its time); read otherwise (`blob`, `arrayBuffer`, the
 * `body` stream), it is not bounded. The client reads every response through it; the conformance kit too
 * (as bytes, to judge their encoding itself).
 */
export function limitResponse(response: Response, maxBytes: number, label: string): Response {
  const { body } = response;
  const bytes = async () => {
    const reader = body!.getReader();
    const parts: Uint8Array[] = [];
    let seen = 0;
    for (let part; !(part = await reader.read()).done; parts.push(part.value)) {
      if ((seen += part.value.length) > maxBytes) {
        reader.cancel();
        throw new ResponseTooLargeError(`${label} answered ${response.status}, its body over maxResponseBytes (${maxBytes} bytes)`);
      }
    }
    // A body of one part (most pages) is used as it came; more parts are copied once into one buffer.
    if (parts.length === 1) return parts[0]!;
    const all = new Uint8Array(seen);
    seen = 0;
    for (const part of parts) all.set(part, seen), (seen += part.length);
    return all;
  };
  const text = async () => new TextDecoder().decode(await bytes());
  const readers = { bytes, text, json: async () => JSON.parse(await text()) as unknown };
  // Defined, not assigned: a fetch may answer a Response whose methods cannot be assigned (Hono's Node adapter
  // puts one in the global scope, its methods read-only on the prototype). Configurable: bounded again, it takes the new bound.
  if (body) for (const name in readers) Object.defineProperty(response, name, { value: readers[name as keyof typeof readers], configurable: true });
  return response;
}
