/**
 * pnpm's hooks for this workspace (https://pnpm.io/pnpmfile). pnpm records this file's checksum in
 * pnpm-lock.yaml (`pnpmfileChecksum`): after editing it, run `pnpm install --lockfile-only`.
 *
 * `updateConfig`: the root's `pnpm start` (scripts/start.ts) runs with pnpm's silent reporter, as
 * `pnpm --silent start` would. The launcher says everything itself (a busy port in one line, a failed
 * build's output), and pnpm 10 follows any script's non-zero exit with its own line
 * (`ELIFECYCLE  Command failed with exit code 1.`: the reporter's reportLifecycleError, for every error
 * coded ELIFECYCLE; only the silent reporter leaves it out) after the `> name@ start` header. Nothing
 * else changes: the install that `verifyDepsBeforeRun` runs before the script is a pnpm process of its
 * own (`pnpm install`, with its own reporter), so its progress and errors show, and every other command
 * (`pnpm install`, `pnpm test`, a package's `pnpm start`) keeps pnpm's reporter.
 */
const { resolve } = require("node:path");

/** The script pnpm was asked to run: `start` of `pnpm start`, `pnpm run start` or `pnpm -w start`. */
function scriptAsked(args) {
  const words = args.filter((arg) => !arg.startsWith("-"));
  return ["run", "run-script"].includes(words[0]) ? words[1] : words[0];
}

module.exports = {
  hooks: {
    updateConfig(config) {
      if (scriptAsked(process.argv.slice(2)) === "start" && resolve(config.dir) === __dirname) config.reporter = "silent";
      return config;
    },
  },
};
