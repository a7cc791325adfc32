import { readFile, stat } from "node:fs/promises";
import { parseJson } from "../json.ts";
import type { Fixture } from "../model.ts";
import { checkFixture, FixtureError, maxFixtureBytes } from "./fixture.ts";

/** Reads a fixture from a JSON file and checks it; a file that is not JSON is a `FixtureError` at `$`. */
export async function readFixture(path: string): Promise<Fixture> {
  // Checked before reading: a larger file would fail as one string ("Invalid string length"), naming nothing.
  const { size } = await stat(path);
  if (size > maxFixtureBytes) {
    const mebibytes = (bytes: number) => `${Math.ceil(bytes / 1024 / 1024)} MiB`;
    throw new FixtureError([
      {
        path: "$",
        message: `${path} is ${mebibytes(size)}, larger than a fixture may be (at most ${mebibytes(maxFixtureBytes)}, the sandbox's limit, as for PUT /_sandbox/fixture)`,
      },
    ]);
  }
  const parsed = parseJson(await readFile(path, "utf8"), path);
  if (!parsed.ok) throw new FixtureError(parsed.defects.map((defect) => ({ ...defect, message: `${path} ${defect.message}` })));
  return checkFixture(parsed.value);
}
