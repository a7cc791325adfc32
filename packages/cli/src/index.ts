/** The `bot-conversation` command as a library: run it with your own streams (`runCommand`), or serve the MCP tools (`createMcpServer`). */
import { loadCommands } from "./command.js";

export { program, runCommand } from "./command.js";
export { completionScript, shells } from "./completion.js";
export { type CommandIo, exitCodes, UsageError } from "./io.js";
export { createMcpServer, type McpOptions, serveMcp } from "./mcp/server.js";
export { type RecorderOptions, type RecordingResult, type RunningRecorder, startRecorder } from "./record/recorder.js";

// `program` builds every command: their constructors are loaded with the package.
await loadCommands();
