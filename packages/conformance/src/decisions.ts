import { readFileSync } from "node:fs";
import { decisionsPath } from "./description.ts";

/** One row of the Decisions table of `openapi/README.md`. */
export interface Decision {
  /** The open point, as the table names it. */
  readonly point: string;
  /** What the service says about it. */
  readonly service: string;
  /** What the description currently does. */
  readonly description: string;
}

/** Reads the Decisions table: the rows after the `## Decisions` heading, by point. */
export function readDecisions(path = decisionsPath): Map<string, Decision> {
  const text = readFileSync(path, "utf8");
  const section = text.slice(text.indexOf("## Decisions"));
  const rows = section
    .split("\n")
    .filter((line) => line.startsWith("|") && !/^\|\s*-/.test(line))
    .map((line) => line.slice(1, -1).split(" | ").map((cell) => cell.trim()));
  return new Map(
    rows
      .slice(1)
      .filter((cells) => cells.length >= 3)
      .map(([point, service, description]) => [point!, { point: point!, service: service!, description: description! }]),
  );
}
