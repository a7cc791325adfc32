import { readFile } from "node:fs/promises";
import { parseJson } from "../json.ts";
import type { Fixture } from "../model.ts";
import { checkFixture, FixtureError } from "./fixture.ts";

/** Reads a fixture from a JSON file and checks it; a file that is not JSON is a `FixtureError` at `$`. */
export async function readFixture(path: string): Promise<Fixture> {
  const parsed = parseJson(await readFile(path, "utf8"), path);
  if (!parsed.ok) throw new FixtureError(parsed.defects.map((defect) => ({ ...defect, message: `${path} ${defect.message}` })));
  return checkFixture(parsed.value);
}
