import { commandFlags, parseServerOptions } from "./args.ts";
import { startSandboxServer } from "../http/server.ts";
import { switchDefinitions } from "../switches.ts";

/**
 * How long the process outlives the last stop signal, so the further signals of one Ctrl-C (terminal,
 * turbo, pnpm) are absorbed; every change is already on disk, so nothing waits for a flush.
 */
const signalSettleMs = 30;

/** The command's help: every option and switch, with an example. */
export function sandboxUsage(command = "bot-conversation-sandbox"): string {
  const switches = switchDefinitions.map((definition) => `  --${definition.flag} <value>`).join("\n");
  const options = commandFlags.map((definition) => `  ${`--${definition.name} ${definition.value}`.padEnd(25)}${definition.summary}`).join("\n");
  return `Usage: ${command} [options]

Serves the Bot Conversation Service's three operations with the service's rules over generated
data (or a fixture), with a control API under /_sandbox/. Prints "Sandbox ready at <url>" when it
answers; Ctrl-C or SIGTERM stops it.

Options:
  --port <port>            port on 127.0.0.1 (default 4011; 0 takes any free port; SANDBOX_PORT)
  --host <host>            interface to listen on (default 127.0.0.1; SANDBOX_HOST)
  --seed <text>            seed of the generated data (default bot-conversation)
  --conversations <n>      number of conversations (default 200)
  --fixture <file>         load this JSON fixture instead of generated data
  --state <name>           default, empty, bot-without-triggers or large (10,000 conversations)
  --latency <ms>           wait before each answer: 200, or a seeded range 50-400
  --data <file>            keep the state (data source, fired events) in this file across restarts
  --token <token>          an accepted X-Token, repeatable (default sandbox-token; SANDBOX_TOKENS)
  --allow-origin <origin>  a web origin whose pages may call /_sandbox/*, repeatable (loopback always may)
  --allow-host <name>      a Host name to answer /_sandbox/* for, repeatable (loopback names always are)
  --database-url <url>     keep every workspace in this PostgreSQL database, shared by replicas (DATABASE_URL)
  --admin-token <token>    the administrator token that manages workspaces (SANDBOX_ADMIN_TOKEN)
  -h, --help               print this help

Switches for the points the service leaves open (see the sandbox's README):
${switches}

Example:
  ${command} --port 0 --conversations 1000 --page-base 1
`;
}

/**
 * Node 22 warns on stderr that node:sqlite (the --data file) is experimental, beside the one line a refused
 * start prints: that warning is left out; every other is printed as Node prints it.
 */
function quietSqliteWarning(): void {
  const [printing] = process.listeners("warning");
  if (!printing) return;
  process.removeListener("warning", printing);
  process.on("warning", (warning) => {
    if (!(warning.name === "ExperimentalWarning" && warning.message.startsWith("SQLite"))) printing(warning);
  });
}

/**
 * Runs the sandbox command: parses `argv` (a leading `--`, as `pnpm start -- --port 4021` passes it,
 * is skipped), prints the help, or starts the server, prints its ready line and stops it on Ctrl-C or
 * SIGTERM. Resolves to the exit code once started (0), or on bad usage (2, with one line on stderr).
 */
export async function runSandboxCommand(argv: readonly string[], env: NodeJS.ProcessEnv, command = "bot-conversation-sandbox"): Promise<number> {
  const args = argv[0] === "--" ? argv.slice(1) : argv;
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(sandboxUsage(command));
    return 0;
  }
  quietSqliteWarning();
  let options;
  try {
    options = parseServerOptions(args, env);
  } catch (error) {
    process.stderr.write(`${command}: ${(error as Error).message}\n`);
    return 2;
  }
  const running = await startSandboxServer(options);
  console.log(`Sandbox ready at ${running.url}`);
  // One Ctrl-C reaches this process several times within milliseconds (terminal, turbo, pnpm): every
  // signal is handled (an unhandled second one kills the process, which pnpm reports as ELIFECYCLE),
  // and the process exits once they have settled.
  let stopping: Promise<void> | undefined;
  let settling: NodeJS.Timeout | undefined;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      stopping ??= running.stop();
      clearTimeout(settling);
      settling = setTimeout(() => void stopping?.then(() => process.exit(0)), signalSettleMs);
    });
  }
  return 0;
}
