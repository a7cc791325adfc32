/** The `bot-conversation` command as a library: run it with your own arguments and streams. */
export { commands, runCommand, usage } from "./command.ts";
