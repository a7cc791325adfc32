import { Command } from "commander";
import { type ConnectionFlags, connect, connectionOptions } from "../connection.js";
import { type CommandIo, exitCodes, version } from "../io.js";

/** The `mcp` command: an MCP server on stdio. */
export function newMcpCommand(io: CommandIo, done: (code: number) => void): Command {
  return connectionOptions(
    new Command("mcp").description(
      "Serve the service to an AI agent: an MCP server on stdin/stdout (search_conversations, list_external_event_triggers; fire_external_event with --allow-fire).",
    ),
  )
    .option("--allow-fire", "also offer fire_external_event (destructive: each call runs a scenario)")
    .addHelpText(
      "after",
      "\nExample (the host starts it; the token comes from its environment):\n  BOT_CONVERSATION_TOKEN=sandbox-token bot-conversation mcp --base-url http://127.0.0.1:4011\n",
    )
    .action(async (flags: ConnectionFlags & { allowFire?: boolean }) => {
      // A missing base URL or token fails here, on stderr, before the server starts.
      const connection = connect(flags, io);
      // The MCP SDK is loaded only by this command: the others start without it.
      const { serveMcp } = await import("./server.js");
      await serveMcp(connection, { allowFire: flags.allowFire === true, version });
      done(exitCodes.ok);
    });
}
