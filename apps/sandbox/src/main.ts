import { runSandboxCommand } from "./command.ts";

runSandboxCommand(process.argv.slice(2), process).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
