import { spawn } from "node:child_process";
import { once } from "node:events";
import { closeSync, openSync } from "node:fs";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { runCommand } from "../../src/index.ts";

/** The built command, as npm links it. */
export const binPath = fileURLToPath(new URL("../../dist/bin.js", import.meta.url));

/** What a run printed, and its exit code. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `bot-conversation <argv>` in process with piped (not terminal) streams and the given environment only. */
export async function runCli(argv: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
  stdout.on("data", (chunk: Buffer) => chunks.stdout.push(chunk));
  stderr.on("data", (chunk: Buffer) => chunks.stderr.push(chunk));
  const code = await runCommand(argv, { stdout, stderr, env });
  return { code, stdout: Buffer.concat(chunks.stdout).toString(), stderr: Buffer.concat(chunks.stderr).toString() };
}

/** Runs the built command as its own process with its standard output in a new file, as `> file` does; resolves to its exit code and stderr. */
export async function runBinToFile(argv: readonly string[], env: NodeJS.ProcessEnv, file: string): Promise<{ code: number; stderr: string }> {
  const output = openSync(file, "w");
  const child = spawn(process.execPath, [binPath, ...argv], { env: { PATH: process.env["PATH"], ...env }, stdio: ["ignore", output, "pipe"] });
  closeSync(output);
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  return { code: code ?? -1, stderr };
}

/** Runs the built command as its own process (stdin closed, output piped). */
export async function runBin(argv: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const child = spawn(process.execPath, [binPath, ...argv], { env: { PATH: process.env["PATH"], ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  return { code: code ?? -1, stdout, stderr };
}
