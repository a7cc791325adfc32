/**
 * A kept-alive connection outlives a long reset (issue 38): Node's server closes a connection idle for 5 s by
 * default, so a client that waited on a reset of 100,000 conversations on a busy machine found its connection
 * closed under it ("socket hang up", `reused: false`). The sandbox keeps idle connections 65 s.
 */
import { Agent, request } from "node:http";
import { expect, test } from "vitest";
import { startSandboxServer } from "../src/index.ts";

test("a connection idle for longer than Node's default keep-alive (5 s) is still open, and says for how long it is kept", { timeout: 60_000 }, async () => {
  const server = await startSandboxServer({ host: "127.0.0.1", port: 0, conversations: 5 });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const url = new URL(server.url);
    const search = () =>
      new Promise<{ status: number; reused: boolean; keepAlive: string | undefined }>((resolve, reject) => {
        const sent = request(
          { host: url.hostname, port: url.port, path: "/api/v2/channels/conversations", headers: { "x-token": "sandbox-token" }, agent },
          (response) => {
            response.resume();
            response.on("end", () =>
              resolve({ status: response.statusCode!, reused: sent.reusedSocket, keepAlive: response.headers["keep-alive"] as string | undefined }),
            );
          },
        );
        sent.on("error", reject);
        sent.end();
      });
    expect(await search()).toEqual({ status: 200, reused: false, keepAlive: "timeout=65" });
    // Idle past Node's default, as a client waiting on a long reset is.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(await search()).toEqual({ status: 200, reused: true, keepAlive: "timeout=65" });
  } finally {
    agent.destroy();
    await server.stop();
  }
});
