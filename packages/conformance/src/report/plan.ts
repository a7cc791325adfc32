import type { Description } from "../description.ts";
import type { ResolvedOptions } from "../options.ts";
import { type PhaseConditions, steps } from "../phases/index.ts";

/** What a run would do (`--dry-run`): the server, the limits, the phases and the operations they call, and what would fire. Nothing is sent. */
export function planText(options: ResolvedOptions, description: Description): string {
  // Whether the bot's triggers will be listed is known only once the run asks: a plan assumes a given bot has them.
  const conditions: PhaseConditions = { allowFire: options.allowFire, triggersListed: options.agentStageId !== undefined };
  const operations = [...description.operations.values()].map((operation) => `${operation.method} ${operation.path} (${operation.id})`);
  const lines = [
    `Plan for ${options.baseUrl} (dry run: nothing is sent)`,
    `  seed ${options.seed}; at most ${options.maxRequests} requests at ${options.rate === 0 ? "no rate limit" : `${options.rate} per second`}; time-out ${options.timeoutMs} ms per request${options.maxTimeMs ? `; the run stops after ${options.maxTimeMs / 1000} s` : ""}${options.maxFailures ? `; after ${options.maxFailures} failures` : ""}`,
    `  operations: ${operations.join("; ")}`,
    `  checks: ${[...options.selected].join(", ")}`,
    `  extra headers: ${Object.keys(options.headers).join(", ") || "none"}`,
    "",
    "Phases",
    // The table the run follows: each step in words, then its phases that these options run, with the checks each feeds.
    ...steps.flatMap((step, index) => [
      `  ${index + 1}. ${step.plan(options)}`,
      ...step.phases.flatMap((phase) =>
        phase.unless?.(conditions) === undefined ? [`       ${phase.name}${phase.checks.length > 0 ? ` (${phase.checks.join(", ")})` : ""}`] : [],
      ),
    ]),
  ];
  return `${lines.join("\n")}\n`;
}
