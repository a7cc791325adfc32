/**
 * A path the user typed, resolved against the folder the user ran the command in. Run through a package
 * script (`pnpm bot-conversation sandbox --fixture fixture.json` from a recording's folder), the process
 * starts in the package's folder, and pnpm (as npm) names the user's folder in `INIT_CWD`: it is taken
 * when the process runs in the folder of the package whose script started it (`npm_package_json`), which
 * a process that a script's program started elsewhere (a test's child in a temporary folder) does not.
 */
import { existsSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";

/** The folder relative paths mean: `INIT_CWD` under a package script run in its package's folder, else the working folder. */
export function userFolder(env: NodeJS.ProcessEnv): string {
  const initial = env["INIT_CWD"];
  const script = env["npm_package_json"];
  return initial && script && env["npm_lifecycle_event"] && resolve(dirname(script)) === process.cwd() ? resolve(initial) : process.cwd();
}

/** `path` resolved against the user's folder (`userFolder`). */
export const userPath = (path: string, env: NodeJS.ProcessEnv): string => (isAbsolute(path) ? path : resolve(userFolder(env), path));

/** An existing file the user named with `flag`, resolved (`userPath`); a missing one is a `TypeError` naming the flag, in one line. */
export function userFile(flag: string, path: string, env: NodeJS.ProcessEnv): string {
  const resolved = userPath(path, env);
  if (!existsSync(resolved))
    throw new TypeError(
      `${flag}: no such file ${JSON.stringify(path)}${resolved === path ? "" : ` (looked for ${resolved}, relative to the folder the command was run in)`}`,
    );
  return resolved;
}
