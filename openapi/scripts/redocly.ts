import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const packageRoot = fileURLToPath(new URL("..", import.meta.url));
const redoclyBin = fileURLToPath(new URL("../node_modules/.bin/redocly", import.meta.url));

/** Path of the workspace's one Redocly configuration. */
export const redoclyConfig = fileURLToPath(new URL("../../redocly.yaml", import.meta.url));

/** Runs the Redocly CLI in the openapi package, quiet and without telemetry, and returns its exit code and output. */
export function redocly(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(redoclyBin, args, {
    cwd: packageRoot,
    encoding: "utf8",
    env: { ...process.env, REDOCLY_SUPPRESS_NOTIFICATIONS: "true", REDOCLY_TELEMETRY: "off", NO_COLOR: "1" },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
