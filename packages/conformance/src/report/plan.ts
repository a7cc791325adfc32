import type { Description } from "../description.ts";
import type { ResolvedOptions } from "../options.ts";

/** What a run would do (`--dry-run`): the server, the limits, the phases and the operations they call, and what would fire. Nothing is sent. */
export function planText(options: ResolvedOptions, description: Description): string {
  const operations = [...description.operations.values()].map((operation) => `${operation.method} ${operation.path} (${operation.id})`);
  const lines = [
    `Plan for ${options.baseUrl} (dry run: nothing is sent)`,
    `  seed ${options.seed}; at most ${options.maxRequests} requests at ${options.rate === 0 ? "no rate limit" : `${options.rate} per second`}; time-out ${options.timeoutMs} ms per request${options.maxTimeMs ? `; the run stops after ${options.maxTimeMs / 1000} s` : ""}${options.maxFailures ? `; after ${options.maxFailures} failures` : ""}`,
    `  operations: ${operations.join("; ")}`,
    `  checks: ${[...options.selected].join(", ")}`,
    `  extra headers: ${Object.keys(options.headers).join(", ") || "none"}`,
    "",
    "Phases",
    `  1. probe: one search; ${options.agentStageId ? `the trigger list of ${options.agentStageId} (a 404 stops the run: unknown bot)` : "no bot given: trigger checks use unknown bots only"}`,
    "  2. searches: the first page, a walk of every page, the edges (page sizes, pages, each status and channel alone, date bounds ±1 ms), two filters against each alone (every page walked), the bot filter's near misses, searches that match nothing, generated and invalid searches",
    "  3. trigger lists: generated bots and an unknown bot",
    `  4. authentication: no token, a wrong, empty, re-cased or spaced one, the token in the query string, a wrong one on a later filtered page and for an unknown bot${options.allowFire ? " (fire requests carry a value the variable's type refuses, or name unknown conversations)" : ""}`,
    `  5. Accept and undocumented methods: ${options.allowFire ? "GET, PUT, PATCH, DELETE where undocumented" : "GET on the fire path and DELETE on an unknown bot's trigger list only"}`,
    options.exportPath ? `  6. exports through ${options.exportPath}` : "  6. exports: none (no --export-path)",
    options.allowFire
      ? `  7. FIRING into ${options.conversationId ?? options.externalConversationId}: unknown triggers and conversations, invalid bodies, each near miss of each variable type on every trigger, right values (real events) and wrong values (stopped after the first one of a type accepted), a fire without a payload and with an empty one (real events), payloads that are no object, and one unlisted variable`
      : "  7. firing: off (read-only; --allow-fire with --conversation-id to fire)",
    "  8. discovery of the open points: a few searches, one HEAD and one OPTIONS on the search path",
  ];
  return `${lines.join("\n")}\n`;
}
