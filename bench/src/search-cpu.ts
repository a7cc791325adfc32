/**
 * The CPU time an answer costs, before and after a change, in the same run: `node src/search-cpu.ts
 * [<name>=<path of a built main.js> ...]` serves each build (the workspace's own `dist/main.js` when none is
 * named) as the command does (`--log-format json`, its stdout a pipe read to its end), and a bare node:http
 * server answering the very same bytes (the ceiling), and loads each with the same request from autocannon in
 * a process of its own, in rounds that turn the order; it prints each load's CPU per answer, each build's share
 * of the ceiling by CPU per answer, and each build's ratio to the first. Not part of `pnpm bench`: a tool for
 * the change at hand: a build of the earlier commit is a copy of its `dist/` inside the package's own
 * `node_modules/.cache/` (so that it resolves the same dependencies, and git never sees it), or a built worktree
 * of it, e.g.
 * `node src/search-cpu.ts before=../packages/sandbox/node_modules/.cache/sandbox-base/main.js after=../packages/sandbox/dist/main.js`.
 *
 * What it loads, from the environment: `LOAD=search` (the default: the search without filters, 10 connections) or
 * `LOAD=fire` (the fire of the `--data` section, `sandbox-data.ts`'s body and path, 16 connections; the ceiling
 * answers its empty 200); `DATA=1` starts each build with `--data`, a file of its own; `PRISM=1` adds Prism to the
 * rounds, each build's ratio to it printed too; `ROUNDS` (6).
 *
 * `--data <file>` after a build serves that build with `--data <file>` (a SQLite file of its own per build: a new
 * one is made; `DATA=1` gives every other build a file of its own too), e.g. `memory=<main.js> data=<main.js> --data
 * /tmp/search-cpu.db` compares a search with `--data` to one in memory.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { defaultMockOptions, type RunningMock, startMockOnFreePort } from "@bot-conversation/mock";
import { startCeiling } from "./ceiling-server.ts";
import type { LoadRequest } from "./load-generator.ts";
import { markdownTable } from "./report.ts";
import { buildOf, workspaceBuild } from "./sandbox-builds.ts";
import { fireBody, firePath } from "./sandbox-data.ts";
import { turningOrder } from "./sandbox-rounds.ts";
import { compareLoads, loadHeader, loadRow, loadServer, percent, ratioHeader, type ServerLoad, times } from "./server-load.ts";

const searchPath = "/api/v2/channels/conversations";
const headers = { "x-token": "sandbox-token" };
/** The load asked for (`LOAD`): the request, its connections, and the name of its tables. */
const loads = {
  search: { path: searchPath, name: "search", connections: 10, request: { headers } },
  fire: {
    path: firePath,
    name: "fire (16 at once)",
    connections: 16,
    request: { method: "POST", body: fireBody, headers: { ...headers, "content-type": "application/json" } },
  },
} satisfies Record<string, { path: string; name: string; connections: number; request: Pick<LoadRequest, "headers" | "method" | "body"> }>;
const loadName = process.env["LOAD"] ?? "search";
if (!(loadName in loads)) throw new Error(`LOAD: expected one of ${Object.keys(loads).join(", ")}; got "${loadName}"`);
const asked = loads[loadName as keyof typeof loads];
const withData = process.env["DATA"] === "1";
const withPrism = process.env["PRISM"] === "1";
const durationSeconds = 5;
const warmUpSeconds = { first: 5, eachRound: 2 };
const rounds = Number(process.env["ROUNDS"] ?? 6);
const readyPrefix = "Sandbox ready at ";

/** A build of the sandbox's command started on a free port (with `--data` when given), its stdout read to the end (as a log shipper would). */
async function startBuild({ main, data }: Build): Promise<{ url: string; process: ChildProcess }> {
  const dataArguments = data === undefined ? [] : ["--data", data];
  const child = spawn(process.execPath, [main, "--port", "0", "--log-format", "json", ...dataArguments], { stdio: ["ignore", "pipe", "inherit"] });
  for await (const line of createInterface({ input: child.stdout })) {
    if (!line.startsWith(readyPrefix)) continue;
    // Every later line is read and left.
    child.stdout.resume();
    return { url: line.slice(readyPrefix.length), process: child };
  }
  throw new Error(`${main} exited before its ready line`);
}

/** A build to load: its name in the tables, its `main.js`, and the `--data` file it serves, if any. */
interface Build {
  readonly name: string;
  readonly main: string;
  readonly data?: string | undefined;
}

/** The builds of the command line: `<name>=<path of main.js>`, each optionally followed by `--data <file>`. */
function buildsOf(argv: readonly string[]): Build[] {
  const builds: Build[] = [];
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === "--data") {
      const data = argv[++index];
      const last = builds.pop();
      if (last === undefined || data === undefined) throw new Error("expected --data <file> after a <name>=<path of main.js>");
      builds.push({ ...last, data });
      continue;
    }
    builds.push(buildOf(argument, "<name>=<path of main.js> [--data <file>]"));
  }
  return builds;
}

if (import.meta.main) {
  const named = buildsOf(process.argv.slice(2));
  const builds: Build[] = named.length > 0 ? named : [workspaceBuild];
  const scratch = mkdtempSync(join(tmpdir(), "bench-search-cpu-"));
  const started = await Promise.all(
    builds.map((build, index) => startBuild({ ...build, data: build.data ?? (withData ? join(scratch, `data-${index}.db`) : undefined) })),
  );
  // The ceiling answers what the first build answers the same request with.
  const sample = await fetch(`${started[0]!.url}${asked.path}`, asked.request);
  if (!sample.ok) throw new Error(`${builds[0]!.name} answered the ${asked.name} with ${sample.status}`);
  const ceiling = await startCeiling(sample);
  const prism: RunningMock | undefined = withPrism ? await startMockOnFreePort(defaultMockOptions) : undefined;
  try {
    const targets = [
      ...builds.map(({ name }, index) => ({ name, url: started[index]!.url, pid: started[index]!.process.pid! })),
      ...(prism === undefined ? [] : [{ name: "Prism mock", url: prism.url, pid: prism.process.pid! }]),
      { name: "node:http ceiling", ...ceiling },
    ];
    const measured: ServerLoad[][] = targets.map(() => []);
    for (let round = 0; round < rounds; round++) {
      for (const index of turningOrder(round, targets.length)) {
        const target = targets[index]!;
        const warmUp = round === 0 ? warmUpSeconds.first : warmUpSeconds.eachRound;
        measured[index]!.push(
          await loadServer(target.pid, {
            url: `${target.url}${asked.path}`,
            ...asked.request,
            connections: asked.connections,
            warmUpSeconds: warmUp,
            durationSeconds,
          }),
        );
      }
    }
    const ceilingLoads = measured.at(-1)!;
    const prismLoads = prism === undefined ? undefined : measured.at(-2)!;
    console.log(`${asked.name}${withData ? ", each build with --data" : ""}`);
    console.log();
    console.log(
      markdownTable(
        loadHeader(`Server, ${asked.name}`),
        measured[0]!.flatMap((_, round) => targets.map((target, index) => loadRow(round, target.name, measured[index]![round]!))),
      ),
    );
    console.log();
    const rows = builds.flatMap(({ name }, index) => [
      ...compareLoads(`${name}, share of the node:http ceiling`, measured[index]!, ceilingLoads, percent).rows,
      ...(prismLoads === undefined ? [] : compareLoads(`${name} over Prism`, measured[index]!, prismLoads, times).rows),
      ...(index === 0 ? [] : compareLoads(`${name} over ${builds[0]!.name}`, measured[index]!, measured[0]!, times).rows),
    ]);
    console.log(markdownTable(ratioHeader(asked.name, rounds), rows));
  } finally {
    await ceiling.stop();
    await prism?.stop();
    for (const { process: child } of started) {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
    rmSync(scratch, { recursive: true, force: true });
  }
}
