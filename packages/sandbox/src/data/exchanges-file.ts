import { readFile } from "node:fs/promises";
import { type ExchangeRecord, parseExchanges } from "./exchanges.ts";

/** Reads a recording's journal (`exchanges.ndjson`) for exact replay; `flag` names the option in every error. */
export async function readExchanges(path: string, flag = "exchanges"): Promise<ExchangeRecord[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new TypeError(`${flag}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? "error"}); expected a recording's exchanges.ndjson`);
  }
  return parseExchanges(text, `${flag} ${path}`);
}
