/** Where a sandbox's data comes from, and the data of each source: generated from a seed in a named state, or a fixture. */
import { type DataSource, type GeneratedSource, type SandboxData, type SandboxState, stateCount } from "../model.ts";
import { generateData } from "./generate.ts";

/** The generated data of the options (or another source's seed, count and state), with any of seed, count and state replaced. */
export function generatedSource(
  defaults: Required<GeneratedSource>,
  given: { seed?: string | undefined; conversations?: number | undefined; state?: SandboxState | undefined },
): DataSource {
  return { seed: given.seed ?? defaults.seed, conversations: given.conversations ?? defaults.conversations, state: given.state ?? defaults.state };
}

/** The data of a source: a fixture's as it is, or the generated data of a seed in a named state. */
export function dataOf(source: DataSource): SandboxData {
  if ("fixture" in source)
    return { bots: source.fixture.bots, count: source.fixture.conversations.length, conversationAt: (index) => source.fixture.conversations[index]! };
  const state = source.state ?? "default";
  const data = generateData(source.seed, stateCount(state) ?? source.conversations);
  if (state !== "bot-without-triggers") return data;
  const [first, ...others] = data.bots;
  return { ...data, bots: [{ ...first!, triggers: [] }, ...others] };
}
