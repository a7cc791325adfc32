/** Serves the sandbox from the workspace (`pnpm start`); installed, the same command is the `bot-conversation-sandbox` bin. */
import { exitCodes } from "@bot-conversation/client/command-line";
import { runSandboxCommand } from "./cli/command.ts";

runSandboxCommand(process.argv.slice(2), process.env).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = exitCodes.failed;
  },
);
