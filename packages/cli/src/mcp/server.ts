import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Connection } from "../connection.js";
import { oneLine } from "../io.js";
import { checkArguments, tools } from "./tools.js";

/** Options of the MCP server. */
export interface McpOptions {
  /** Lists `fire_external_event` (destructive, not idempotent). */
  readonly allowFire: boolean;
  /** Version reported to the host. */
  readonly version: string;
}

/**
 * An MCP server of the service's tools, on the SDK's low-level `Server` (the tools' input schemas are
 * the description's JSON Schemas as they are, not converted). Results are structured content (and the
 * same JSON as text); a failure is a tool error (`isError`) carrying the service's detail, the token redacted.
 */
export function createMcpServer(connection: Connection, options: McpOptions): Server {
  const available = tools(options.allowFire);
  const server = new Server({ name: "bot-conversation", version: options.version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: available.map((tool) => tool.definition) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = available.find((candidate) => candidate.definition.name === request.params.name);
    try {
      if (!tool) throw new TypeError(`name: expected one of ${available.map((candidate) => candidate.definition.name).join(", ")}; got ${JSON.stringify(request.params.name)}`);
      const structuredContent = await tool.call(connection.client, checkArguments(tool, request.params.arguments), extra.signal);
      return { structuredContent, content: [{ type: "text" as const, text: JSON.stringify(structuredContent) }] };
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
