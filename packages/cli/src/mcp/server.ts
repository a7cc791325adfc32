import { redactJson } from "@bot-conversation/client/text";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Connection } from "../connection.js";
import { oneLine } from "../io.js";
import { limitResult } from "./limits.js";
import { problemsOf } from "./schema-check.js";
import { checkArguments, tools } from "./tools.js";

/** Options of the MCP server. */
export interface McpOptions {
  /** Lists `fire_external_event` (destructive, not idempotent). */
  readonly allowFire: boolean;
  /** Version reported to the host. */
  readonly version: string;
}

/**
 * An MCP server of the service's tools, on the SDK's low-level `Server`: the pinned SDK (1.x) takes
 * only zod schemas in `registerTool`, and the tools' input and output schemas are the description's
 * JSON Schemas as they are, not a second copy in zod. A result is sent once, as structured content
 * (the token redacted, within `limits.ts`'s size, checked against the tool's `outputSchema`: an answer
 * of the service that does not fit the description is a tool error, never content that breaks the
 * declared schema), with a one-line summary as its text content; a failure is a tool error (`isError`)
 * carrying the service's detail in one sanitized line, the token redacted.
 */
export function createMcpServer(connection: Connection, options: McpOptions): Server {
  const available = tools(options.allowFire);
  const server = new Server({ name: "bot-conversation", version: options.version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: available.map((tool) => tool.definition) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = available.find((candidate) => candidate.definition.name === request.params.name);
    try {
      if (!tool)
        throw new TypeError(
          `name: expected one of ${available.map((candidate) => candidate.definition.name).join(", ")}; got ${JSON.stringify(request.params.name)}`,
        );
      const result = redactJson(await tool.call(connection.client, checkArguments(tool, request.params.arguments), extra.signal), [connection.token]);
      const structuredContent = limitResult(result, tool.list?.name, (kept) => tool.list?.howToGetTheRest(kept) ?? "");
      const unfit = problemsOf(tool.definition.outputSchema, structuredContent);
      if (unfit.length > 0)
        throw new TypeError(
          `The server's answer does not fit the description: ${unfit.slice(0, 3).join("; ")}${unfit.length > 3 ? `; and ${unfit.length - 3} more` : ""}`,
        );
      const cut = structuredContent["truncated"] ? ` ${(structuredContent["truncated"] as { note: string }).note}` : "";
      return { structuredContent, content: [{ type: "text" as const, text: `${tool.summary(structuredContent)}${cut}` }] };
    } catch (error) {
      return { isError: true, content: [{ type: "text" as const, text: oneLine(error, [connection.token]) }] };
    }
  });
  return server;
}

/** Serves the tools over stdio until the host closes stdin. */
export async function serveMcp(connection: Connection, options: McpOptions): Promise<void> {
  const server = createMcpServer(connection, options);
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  await server.connect(new StdioServerTransport());
  // The host ends stdin to stop the server.
  process.stdin.once("end", () => void server.close());
  await closed;
}
