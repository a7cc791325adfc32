/**
 * The size bound of a fixture, checked before a byte is read: a file is refused by its size (`stat`), so a
 * file of hundreds of MiB costs no memory and says what is wrong in one line. Imports nothing heavy: the
 * `bot-conversation workspaces create --fixture` command checks a file with it before reading the file. Node only
 * (the browser's build takes the bound alone, from `fixture-limit.ts`).
 */
import { stat } from "node:fs/promises";
import { maxFixtureBytes } from "./fixture-limit.ts";

/** Bytes in MiB, rounded up, as the refusal says them. */
const mebibytes = (bytes: number) => `${Math.ceil(bytes / 1024 / 1024)} MiB`;

/**
 * Why the fixture file at `path` is too large to be a fixture, in one line naming the file, its size and the
 * limit; `undefined` when it is not. Reads only the file's size (a missing file rejects, as `stat` does).
 */
export async function oversizedFixtureFile(path: string): Promise<string | undefined> {
  const { size } = await stat(path);
  if (size <= maxFixtureBytes) return undefined;
  return `${path} is ${mebibytes(size)} (${size} bytes), larger than a fixture may be (at most ${mebibytes(maxFixtureBytes)}, the sandbox's limit, as for PUT /_sandbox/fixture)`;
}
