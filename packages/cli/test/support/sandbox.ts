import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type RunningSandbox, startSandboxServer } from "@bot-conversation/sandbox";
import { type TestSandboxServer, useSandboxServer } from "@bot-conversation/test-support/sandbox";
import { afterAll, beforeAll } from "vitest";

/** The token the test sandboxes accept. */
export const token = "cli-test-token-5b1f";

/** The real sandbox on 127.0.0.1, port 0 (accepting `token` unless `tokens` says otherwise), for the suite (test-support's fixture); the getter returns it. */
export function useSandbox(options: Omit<Parameters<typeof startSandboxServer>[0], "host" | "port">): () => TestSandboxServer<RunningSandbox> {
  return useSandboxServer(startSandboxServer, { tokens: [token], ...options });
}

/** The environment of a run against a sandbox: its URL and the token. */
export const envOf = (sandbox: RunningSandbox): NodeJS.ProcessEnv => ({ BOT_CONVERSATION_BASE_URL: sandbox.url, BOT_CONVERSATION_TOKEN: token });

/** Reads the sandbox's journal of accepted fires. */
export async function firedEvents(
  sandbox: RunningSandbox,
): Promise<{ externalEventId: string; externalEventPayload?: Record<string, unknown>; conversationId: string }[]> {
  const response = await fetch(`${sandbox.url}/_sandbox/fired-events`, { headers: { "X-Token": token } });
  return (await response.json()) as never;
}

/** A server that counts the requests it gets (and answers 500): proof that nothing was sent. */
export function useCountingServer(): { url: () => string; requests: () => number } {
  let server: Server | undefined;
  let requests = 0;
  beforeAll(async () => {
    server = createServer((_request, response) => {
      requests++;
      response.writeHead(500).end();
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });
  return { url: () => `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, requests: () => requests };
}
