import { type BotConversationClient, createBotConversationClient } from "@bot-conversation/client";
import { createSandbox, type SandboxOptions } from "@bot-conversation/sandbox";

/** The real sandbox in process, a client whose fetch is the sandbox's own handler, and every request it received. */
export interface TestSandbox {
  /** A client of the sandbox (no retry waits: `Retry-After: 0` faults are answered at once). */
  readonly client: BotConversationClient;
  /** Method and path (with query string) of every request the client sent, in order. */
  readonly requests: string[];
  /** The signal of every request the client sent, in order (to see which were aborted). */
  readonly signals: AbortSignal[];
  /** Calls a control route (`/_sandbox/...`) with the sandbox's token; resolves to the parsed body, if any. */
  control(method: string, path: string, body?: unknown): Promise<unknown>;
  /** Closes the sandbox. */
  close(): Promise<void>;
}

const baseUrl = "http://sandbox.invalid";

/** Starts the sandbox in process with `options`; the caller closes it. */
export async function startTestSandbox(options: Partial<SandboxOptions> = {}): Promise<TestSandbox> {
  const sandbox = await createSandbox(options);
  const requests: string[] = [];
  const signals: AbortSignal[] = [];
  const client = createBotConversationClient({
    baseUrl,
    token: "sandbox-token",
    fetch: (request, init) => {
      const url = new URL(request.url);
      requests.push(`${request.method} ${url.pathname}${url.search}`);
      signals.push(request.signal);
      return sandbox.fetch(request, init);
    },
  });
  return {
    client,
    requests,
    signals,
    async control(method, path, body) {
      const headers: Record<string, string> = { "X-Token": "sandbox-token" };
      if (body !== undefined) headers["Content-Type"] = "application/json";
      const response = await sandbox.fetch(`${baseUrl}/_sandbox/${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      if (!response.ok) throw new Error(`${method} /_sandbox/${path} answered ${response.status}: ${await response.text()}`);
      const text = await response.text();
      return text ? JSON.parse(text) : undefined;
    },
    close: () => sandbox.close(),
  };
}

/** A bot of the sandbox's data, as `GET /_sandbox/bots` lists it. */
export interface SandboxBot {
  /** The bot's identifier. */
  readonly agentStageId: string;
  /** How many conversations it has. */
  readonly conversations: number;
}

/** The bot with the most conversations in the sandbox's data (the generated data is the sandbox's to choose, so it is looked up). */
export async function busiestBot(sandbox: TestSandbox): Promise<SandboxBot> {
  const bots = (await sandbox.control("GET", "bots")) as SandboxBot[];
  return bots.reduce((busiest, bot) => (bot.conversations > busiest.conversations ? bot : busiest));
}
