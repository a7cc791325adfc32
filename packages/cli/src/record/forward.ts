/**
 * One request forwarded to the upstream and its answer read, both bounded and time-limited: the
 * client's body and the upstream's body are read through the client's `limitResponse` (the toolkit's
 * one bounded read), the whole exchange with the upstream within `timeoutMs`. Nothing is decoded or
 * re-encoded: the bytes, the status and the headers come back as the upstream sent them (hop-by-hop
 * headers excepted, as any proxy does).
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { Readable } from "node:stream";
import { limitResponse } from "@bot-conversation/client";

/** Headers that describe one connection, not the message (RFC 9110 §7.6.1): never forwarded either way. */
const hopByHop = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "proxy-authenticate",
  "proxy-authorization",
]);

/** A raw header list (`[name, value, name, value, …]`) without hop-by-hop headers (and without `host`, when `dropHost`). */
export function endToEndHeaders(raw: readonly string[], dropHost = false): string[] {
  const kept: string[] = [];
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index]!.toLowerCase();
    if (hopByHop.has(name) || (dropHost && name === "host")) continue;
    kept.push(raw[index]!, raw[index + 1]!);
  }
  return kept;
}

/** A body stream read whole within `maxBytes` by the client's bounded read; `label` starts the error. */
export async function readBounded(stream: Readable, maxBytes: number, label: string, status = 200): Promise<Uint8Array> {
  const response = new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { status: status >= 200 && status <= 599 ? status : 200 });
  return limitResponse(response, maxBytes, label).bytes();
}

/** The upstream's answer, read whole. */
export interface UpstreamAnswer {
  /** Its status. */
  readonly status: number;
  /** Its reason phrase. */
  readonly statusMessage: string;
  /** Its headers as sent, hop-by-hop ones left out (`[name, value, …]`). */
  readonly rawHeaders: readonly string[];
  /** Its body, bytes as sent. */
  readonly body: Uint8Array;
}

/** Where and how to forward. */
export interface Upstream {
  /** The upstream's base URL (its path is kept as a prefix). */
  readonly base: URL;
  /** Extra CA certificates (PEM), added to Node's own and the system's. */
  readonly ca?: string | undefined;
  /** The bound of each exchange with the upstream, in milliseconds. */
  readonly timeoutMs: number;
  /** The largest upstream body read. */
  readonly maxResponseBytes: number;
}

/** The methods RFC 9110 (9.2.2) calls idempotent: sent again when a kept-alive connection was closed under them. */
const idempotent = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"]);

/** Statuses whose responses have no body (RFC 9110). */
const bodiless = new Set([204, 205, 304]);

/** A forwarder to one upstream, keeping its connections alive between requests; `close` ends them. */
export function forwarder(upstream: Upstream, systemCa: readonly string[]) {
  const https = upstream.base.protocol === "https:";
  const agent = https
    ? new HttpsAgent({
        keepAlive: true,
        ...(upstream.ca !== undefined || systemCa.length > 0 ? { ca: [...systemCa, ...(upstream.ca === undefined ? [] : [upstream.ca])] } : {}),
      })
    : new HttpAgent({ keepAlive: true });
  const prefix = upstream.base.pathname.replace(/\/+$/, "");
  return {
    /** Sends `method target` with `rawHeaders` and `body`, and reads the answer (rejects on no answer, a timeout or a body past the bound). */
    async send(method: string, target: string, rawHeaders: readonly string[], body: Uint8Array): Promise<UpstreamAnswer> {
      const url = new URL(prefix + target, upstream.base);
      const signal = AbortSignal.timeout(upstream.timeoutMs);
      const headers = endToEndHeaders(rawHeaders, true);
      headers.push("Host", url.host);
      const attempt = (retried: boolean): Promise<IncomingMessage> =>
        new Promise<IncomingMessage>((resolve, reject) => {
          const request = (https ? httpsRequest : httpRequest)(url, { method, headers, agent, signal });
          request.on("response", resolve);
          request.on("error", (error: NodeJS.ErrnoException) => {
            if (signal.aborted) return reject(new Error(`no answer within ${upstream.timeoutMs} ms`));
            // A kept-alive connection the upstream closed as this request went out on it (its idle timeout): the
            // request never reached it, so an idempotent one is sent once more on a new connection (Node's
            // `request.reusedSocket` recipe); a POST is never sent twice.
            if (!retried && request.reusedSocket && idempotent.has(method) && (error.code === "ECONNRESET" || error.code === "EPIPE"))
              return resolve(attempt(true));
            reject(error);
          });
          request.end(body.length > 0 ? body : undefined);
        });
      const response = await attempt(false);
      const status = response.statusCode ?? 0;
      const label = `${method} ${url.pathname}`;
      let bytes: Uint8Array;
      try {
        bytes =
          method === "HEAD" || bodiless.has(status)
            ? (response.resume(), new Uint8Array(0))
            : await readBounded(response, upstream.maxResponseBytes, label, status);
      } catch (error) {
        throw signal.aborted ? new Error(`its answer did not end within ${upstream.timeoutMs} ms`) : error;
      }
      return { status, statusMessage: response.statusMessage ?? "", rawHeaders: endToEndHeaders(response.rawHeaders), body: bytes };
    },
    /** Ends the kept-alive connections. */
    close(): void {
      agent.destroy();
    },
  };
}
