import { ResponseTooLargeError } from "../errors.js";

/** The largest response body the client reads by default: 16 MiB (our choice, far above a page of 500 summaries). */
export const defaultMaxResponseBytes = 2 ** 24;

/**
 * `response` with a body that fails with `ResponseTooLargeError` once more than `maxBytes` bytes have
 * arrived; the rest is never read (the stream is cancelled, which closes the connection). `label`
 * starts the message, e.g. `GET /api/v2/channels/conversations`. A response without a body is
 * returned as it is. The client reads every response through it; the conformance kit too.
 */
export function limitResponse(response: Response, maxBytes: number, label: string): Response {
  let seen = 0;
  return response.body
    ? new Response(
        response.body.pipeThrough(
          new TransformStream({
            transform: (chunk: Uint8Array, controller) =>
              (seen += chunk.length) > maxBytes
                ? controller.error(new ResponseTooLargeError(`${label} answered ${response.status}, its body over maxResponseBytes (${maxBytes} bytes)`))
                : controller.enqueue(chunk),
          }),
        ),
        // A Response is a ResponseInit: its status, statusText and headers.
        response,
      )
    : response;
}
