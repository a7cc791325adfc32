import { spawn } from "node:child_process";
import { once } from "node:events";
import { createRequire } from "node:module";
import { redoclyConfigPath } from "./paths.ts";

const cliPath = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");

/** Runs the pinned Redocly CLI with the repository's config; telemetry off, so a build makes no outside request. */
export async function runRedocly(args: readonly string[]): Promise<void> {
  const child = spawn(process.execPath, [cliPath, ...args, "--config", redoclyConfigPath], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, REDOCLY_TELEMETRY: "off" },
  });
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0) throw new Error(`redocly ${args[0]} failed with exit code ${code}`);
}
