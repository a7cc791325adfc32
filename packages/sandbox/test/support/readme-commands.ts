import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../../../", import.meta.url));
const openapiPackage = `${root}openapi`;
const inOpenapi = "pnpm --filter @bot-conversation/openapi exec ";

/** The commands of a README's `sh` blocks (indented ones too), one per line, a `\` continuing a line, comments dropped. */
export function shellCommands(readme: string): string[] {
  return [...readme.matchAll(/^( *)```sh\n([\s\S]*?)^\1```$/gm)]
    .flatMap((match) => match[2]!.replaceAll("\\\n", " ").split("\n"))
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "");
}

/**
 * Runs a README command with `sandboxUrl` in place of `http://127.0.0.1:4011`, and resolves to what it
 * printed. What `pnpm --filter @bot-conversation/openapi exec` does (run in that package, its
 * `node_modules/.bin` first on the PATH) is done directly: the test does not depend on how pnpm was installed.
 */
export async function runAgainstSandbox(command: string, sandboxUrl: string): Promise<string> {
  const local = command.replaceAll("http://127.0.0.1:4011", sandboxUrl);
  const { stdout } = await run("bash", ["-c", local.replace(inOpenapi, "")], {
    cwd: command.startsWith(inOpenapi) ? openapiPackage : root,
    env: { ...process.env, PATH: `${openapiPackage}/node_modules/.bin:${process.env["PATH"] ?? ""}`, NO_COLOR: "1" },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}
