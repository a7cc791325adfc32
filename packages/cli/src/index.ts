/** The `bot-conversation` command as a library: run it with your own streams (`runCommand`), or serve the MCP tools (`createMcpServer`). */
export { program, runCommand } from "./command.js";
export { exitCodes, UsageError, type CommandIo } from "./io.js";
export { createMcpServer, serveMcp, type McpOptions } from "./mcp/server.js";
export { completionScript, shells } from "./completion.js";
