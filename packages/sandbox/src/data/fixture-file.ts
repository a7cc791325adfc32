import { readFile } from "node:fs/promises";
import { parseJson } from "../json.ts";
import type { Fixture } from "../model.ts";
import { checkFixture, FixtureError } from "./fixture.ts";
import { oversizedFixtureFile } from "./fixture-size.ts";

/** Reads a fixture from a JSON file and checks it; a file that is not JSON is a `FixtureError` at `$`, and so is one over the size limit, refused before it is read. */
export async function readFixture(path: string): Promise<Fixture> {
  // Checked before reading: a larger file would fail as one string ("Invalid string length"), naming nothing.
  const oversized = await oversizedFixtureFile(path);
  if (oversized !== undefined) throw new FixtureError([{ path: "$", message: oversized }]);
  const parsed = parseJson(await readFile(path, "utf8"), path);
  if (!parsed.ok) throw new FixtureError(parsed.defects.map((defect) => ({ ...defect, message: `${path} ${defect.message}` })));
  return checkFixture(parsed.value);
}
