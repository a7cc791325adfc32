/**
 * Programs some tests take from the machine beyond the workspace (Debian's tmux, zsh, fish, prometheus). The
 * README's quick start asks for nothing but Node and npm, so on a machine without one its tests are not run
 * there, and the run says so in one line; CI installs every one first (`.ci/provision.sh`) and counts a test
 * not run as failed (`.ci/totals.ts`).
 */
import { spawnSync } from "node:child_process";

/** Whether `command` is on the PATH, as a shell finds it. */
export function installed(command: string): boolean {
  return spawnSync("sh", ["-c", 'command -v "$1"', "sh", command], { stdio: "ignore" }).status === 0;
}

/**
 * Whether `command` is installed; when it is not, says so in one line naming the tests (`what`) and how to
 * install it: `<what> not run: <command> is not installed (apt-get install <aptPackage>); CI runs them`.
 * Pair it with `it.skipIf(!…)` / `describe.skipIf(!…)`.
 */
export function programForTests(command: string, what: string, aptPackage: string = command): boolean {
  if (installed(command)) return true;
  console.warn(`${what} not run: ${command} is not installed (apt-get install ${aptPackage}); CI runs them`);
  return false;
}
