import { createServer } from "node:http";
import { type LoopbackServer, listenOnLoopback } from "./loopback.ts";

/**
 * A load balancer for tests: an HTTP server on 127.0.0.1 that sends each request to the next of `upstreams`
 * in turn (method, path, query, headers and body as they came) and answers with what that one answered.
 */
export async function startRoundRobin(upstreams: readonly string[]): Promise<LoopbackServer> {
  let next = 0;
  const server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (typeof value === "string" && !["host", "connection", "content-length", "transfer-encoding"].includes(name)) headers.set(name, value);
    }
    const upstream = upstreams[next++ % upstreams.length]!;
    try {
      const body = Buffer.concat(chunks);
      const answer = await fetch(`${upstream}${incoming.url ?? "/"}`, {
        method: incoming.method ?? "GET",
        headers,
        ...(body.length > 0 ? { body } : {}),
        redirect: "manual",
      });
      const answered: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!["content-length", "content-encoding", "transfer-encoding", "connection"].includes(name)) answered[name] = value;
      });
      outgoing.writeHead(answer.status, answered).end(Buffer.from(await answer.arrayBuffer()));
    } catch (error) {
      outgoing.writeHead(502, { "content-type": "text/plain" }).end(`round robin: ${upstream} did not answer (${String(error)})`);
    }
  });
  return listenOnLoopback(server);
}
