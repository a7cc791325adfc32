/**
 * The one check of every `--port` of the toolkit, exported by `./command-line`. A module of its own,
 * importing nothing, so that what runs before a build or cannot depend on the client (the root
 * `pnpm start`, whose checks come before it builds; the mock, which the client's tests use) loads this
 * source by path with Node's type stripping.
 */

/**
 * The TCP port a server of the toolkit listens on, read from a flag's or variable's `text`: an integer
 * from 0 to 65535, 0 for any free port. The one check of every `--port`; otherwise a `TypeError` naming
 * `source` (e.g. `--port / SANDBOX_PORT`) and quoting the text.
 */
export function portOf(text: string, source: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) throw new TypeError(`${source}: expected an integer from 0 to 65535; got ${JSON.stringify(text)}`);
  return Number(text);
}
