/**
 * `pnpm start`: serves the mock, the sandbox and the API reference through `turbo run start` (which
 * builds what is stale first), on the ports given by `--mock-port`, `--sandbox-port`, `--docs-port`
 * or `MOCK_PORT`, `SANDBOX_PORT`, `DOCS_PORT`. Busy ports are one line naming every busy one (the
 * server, the port) and how to pick others, before anything starts. On a first run (a package's build
 * output, as its turbo.json declares it, missing) one line says the builds take a few minutes. The
 * sandbox is told where the reference is served (`SANDBOX_REFERENCE_URL`), which its `/` page links. Until every server is ready, only the ready lines
 * are shown (`--verbose` shows every tool's output); if something fails first, what it printed is
 * shown then. Once all are ready, everything the servers print (their request logs) passes through.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { isPortFree } from "../apps/mock/src/port.ts";
// By path, as the mock's port check: the ports are checked before anything is built.
import { portOf } from "../packages/client/src/port.ts";

/** Each server: its flag, its variable, its default port, and how it is named in messages. */
const servers = [
  { name: "Mock", flag: "mock-port", variable: "MOCK_PORT", hostVariable: "MOCK_HOST", port: 4010 },
  { name: "Sandbox", flag: "sandbox-port", variable: "SANDBOX_PORT", hostVariable: "SANDBOX_HOST", port: 4011 },
  { name: "Reference", flag: "docs-port", variable: "DOCS_PORT", hostVariable: "DOCS_HOST", port: 8080 },
] as const;

const usage = `Usage: pnpm start [-- --mock-port <port>] [--sandbox-port <port>] [--docs-port <port>] [--verbose] [--no-build]

Serves the Prism mock (4010), the sandbox (4011) and the API reference (8080) on 127.0.0.1, building
what is stale first. Each port can also come from MOCK_PORT, SANDBOX_PORT, DOCS_PORT; 0 takes any free
port. --verbose shows every build's output; --no-build serves what is already built (turbo --only).
Ctrl-C stops them all.

Example:
  pnpm start -- --mock-port 5010 --sandbox-port 5011 --docs-port 5080
`;

/** The workspace's root folder. */
const root = new URL("..", import.meta.url).pathname;

/** The outputs of a build as turbo declares them: the package's own `turbo.json`, else the root's (`dist/**`). */
function buildOutputs(folder: string): string[] {
  const outputsIn = (file: string): string[] | undefined => {
    if (!existsSync(file)) return undefined;
    const { tasks } = JSON.parse(readFileSync(file, "utf8")) as { tasks?: Record<string, { outputs?: string[] }> };
    return tasks?.["build"]?.outputs;
  };
  return outputsIn(join(root, folder, "turbo.json")) ?? outputsIn(join(root, "turbo.json")) ?? ["dist/**"];
}

/**
 * Whether a build output is there: the folder its glob starts with (`dist` of `dist/**`, `generated` of
 * `generated/**`) holds something. A negated glob (`!dist/cache/**`) says nothing of whether it was built.
 */
function outputPresent(folder: string, glob: string): boolean {
  if (glob.startsWith("!")) return true;
  const fixed = glob.split("/").filter((part) => !/[*?[{]/.test(part));
  const path = join(root, folder, ...fixed);
  return existsSync(path) && (!statSync(path).isDirectory() || readdirSync(path).length > 0);
}

/** Whether some workspace package with a build has not been built yet (an output its turbo.json declares is missing): a first run. */
function nothingBuiltYet(): boolean {
  const folders = ["openapi", ...["packages", "apps"].flatMap((group) => readdirSync(join(root, group)).map((name) => join(group, name)))];
  return folders.some((folder) => {
    const manifest = join(root, folder, "package.json");
    if (!existsSync(manifest)) return false;
    const { scripts } = JSON.parse(readFileSync(manifest, "utf8")) as { scripts?: Record<string, string> };
    return scripts?.["build"] !== undefined && !buildOutputs(folder).every((glob) => outputPresent(folder, glob));
  });
}

/** The one line for busy ports: each busy server and port, and how to pick others. */
function busyPortsMessage(busy: readonly { server: (typeof servers)[number]; host: string; port: number }[]): string {
  if (busy.length === 1) {
    const [{ server, host, port }] = busy as [(typeof busy)[number]];
    return `${server.name}: port ${port} on ${host} is in use; pick another with pnpm start -- --${server.flag} <port> (or ${server.variable}=<port>).`;
  }
  const named = busy.map(({ server, host, port }) => `${server.name} ${port} on ${host}`).join(", ");
  const flags = busy.map(({ server }) => `--${server.flag} <port>`).join(" ");
  const variables = busy.map(({ server }) => `${server.variable}=<port>`).join(" ");
  return `Ports in use: ${named}; pick others with pnpm start -- ${flags} (or ${variables}).`;
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2).filter((arg, index) => !(index === 0 && arg === "--")),
      options: {
        ...Object.fromEntries(servers.map((server) => [server.flag, { type: "string" as const }])),
        verbose: { type: "boolean" },
        "no-build": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`pnpm start: ${(error as Error).message}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  const env: NodeJS.ProcessEnv = { ...process.env };
  const chosen: { server: (typeof servers)[number]; host: string; port: number }[] = [];
  for (const server of servers) {
    const text = (values[server.flag] as string | undefined) ?? process.env[server.variable] ?? String(server.port);
    let port: number;
    try {
      port = portOf(text, `--${server.flag} / ${server.variable}`);
    } catch (error) {
      process.stderr.write(`pnpm start: ${(error as Error).message}\n`);
      return 2;
    }
    chosen.push({ server, host: process.env[server.hostVariable] ?? "127.0.0.1", port });
    env[server.variable] = String(port);
  }
  // The sandbox's page links the reference where it is served: known here unless its port is any free one (0).
  const reference = chosen.find(({ server }) => server.name === "Reference")!;
  if (reference.port !== 0) {
    const host = ["0.0.0.0", "::"].includes(reference.host) ? "127.0.0.1" : reference.host;
    env["SANDBOX_REFERENCE_URL"] = `http://${host.includes(":") ? `[${host}]` : host}:${reference.port}/`;
  }
  // Every port is checked before any message: one line names them all (fix all, rerun once).
  const free = await Promise.all(chosen.map(({ host, port }) => port === 0 || isPortFree(host, port)));
  const busy = chosen.filter((_, index) => !free[index]);
  if (busy.length > 0) {
    process.stderr.write(`${busyPortsMessage(busy)}\n`);
    return 1;
  }
  if (!values["no-build"] && nothingBuiltYet()) {
    process.stdout.write("first run: building every package, a few minutes (quiet; --verbose shows the builds), then the three ready lines\n");
  }
  // Streamed, whatever turbo would choose: on GitHub Actions (GITHUB_ACTIONS) it groups each task's output and shows
  // it when the task ends, and a server's task never ends, so no ready line would be seen.
  const args = [
    "run",
    "start",
    "--log-prefix=none",
    "--log-order=stream",
    ...(values.verbose ? ["--output-logs=full"] : []),
    ...(values["no-build"] ? ["--only"] : []),
  ];
  // turbo and the servers run as a process group of their own, which every stop signal is passed to.
  const turbo = spawn("turbo", args, { stdio: ["inherit", "pipe", "pipe"], env, detached: true });
  const held: string[] = [];
  const waiting = new Set(servers.map((server) => `${server.name} ready at `));
  for (const [stream, out] of [
    [turbo.stdout, process.stdout],
    [turbo.stderr, process.stderr],
  ] as const) {
    createInterface({ input: stream, crlfDelay: Infinity }).on("line", (line) => {
      const ready = [...waiting].find((prefix) => line.startsWith(prefix));
      if (ready) waiting.delete(ready);
      if (values.verbose || ready || waiting.size === 0) out.write(`${line}\n`);
      else held.push(line);
    });
  }
  // Ctrl-C (or a SIGTERM) is passed to the group; this process waits for them all to stop.
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      stopping = true;
      process.kill(-turbo.pid!, signal);
    });
  }
  const [code] = (await once(turbo, "close")) as [number | null];
  if (stopping) return 0;
  // Stopped before every server was ready: what was held back says why.
  if (waiting.size > 0 && held.length > 0) process.stderr.write(`${held.join("\n")}\n`);
  return code ?? 1;
}

process.exitCode = await main();
