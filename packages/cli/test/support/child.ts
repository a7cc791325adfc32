import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { binPath } from "./cli.ts";

/** The preload that records a child's peak RSS. */
export const peakRssPreload = fileURLToPath(new URL("./peak-rss.mjs", import.meta.url));

/** A file for a child's peak RSS, and how to read it once the child has exited. */
export async function peakRssFile(): Promise<{ file: string; read: () => Promise<number> }> {
  const file = join(await mkdtemp(join(tmpdir(), "cli-rss-")), "peak");
  return { file, read: async () => Number(await readFile(file, "utf8")) };
}

/** Runs the built command as its own process, its peak RSS recorded; resolves to its exit code, output and peak RSS in bytes. */
export async function runBinMeasured(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string; peakRss: number }> {
  const rss = await peakRssFile();
  const child = spawn(process.execPath, ["--import", peakRssPreload, binPath, ...argv], {
    env: { PATH: process.env["PATH"], ...env, PEAK_RSS_FILE: rss.file },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  return { code: code ?? -1, stdout, stderr, peakRss: await rss.read() };
}
