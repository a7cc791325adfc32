import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The bundled description, the single source of the bodies the benchmarks serve. */
const description = JSON.parse(readFileSync(require.resolve("@bot-conversation/openapi/openapi.json"), "utf8")) as {
  components: { examples: Record<string, { value: unknown }>; parameters: Record<string, { example?: unknown }> };
};

/** A named example's value from the description. */
export function exampleValue<T>(name: string): T {
  const example = description.components.examples[name];
  if (!example) throw new Error(`the description has no example named ${name}`);
  return structuredClone(example.value) as T;
}

/** A named parameter's example from the description (`AgentStageIdPath`: the example bot, whose triggers the sandbox's default data lists). */
export function parameterExample(name: string): string {
  const example = description.components.parameters[name]?.example;
  if (typeof example !== "string") throw new Error(`the description has no parameter named ${name} with a text example`);
  return example;
}

/** A conversation summary as the search example serves it. */
export type ConversationSummary = { id: string } & Record<string, unknown>;

/** A search page as the description's first-page example serves it. */
export type ConversationPage = { items: ConversationSummary[]; hasMore: boolean; pageIndex: number; pageSize: number } & Record<string, unknown>;

/** Token the benchmarks send; never a real one. */
export const benchmarkToken = "benchmark-token";
