import type { ExternalEventTrigger } from "@bot-conversation/types";
import type { Exchange } from "../case.ts";
import { type CheckName, catalogEntry, checkNames, checksOfPhase } from "../checks/index.ts";
import type { ConversationsRead } from "../consistency.ts";
import { type DiscoveryInput, discover, type Finding } from "../discovery.ts";
import type { ResolvedOptions } from "../options.ts";
import type { Session } from "../session.ts";
import { checkAuthentication } from "./auth.ts";
import { checkConcurrentAnswers, checkListedTriggersFire, checkWhatFiresChanged, readBeforeFires } from "./consistency.ts";
import { exploreEdges } from "./edges.ts";
import { checkExports } from "./export.ts";
import { checkExternalIdentifier } from "./external-identifier.ts";
import { checkBotFilter, checkEmptySearches, checkFilterCombinations } from "./filters.ts";
import {
  checkEscapedConversation,
  checkFireNotFound,
  checkPayloadForms,
  checkPayloads,
  exploreInvalidFire,
  probeIdentifierPrecedence,
  probeOpenForms,
} from "./fire.ts";
import { checkBotIdentifiers } from "./identifiers.ts";
import { checkSearchModel } from "./model.ts";
import { confirmBot, confirmConversation } from "./preflight.ts";
import { checkAcceptNegotiation, checkUnsupportedMethods } from "./protocol.ts";
import { exploreInvalidSearch, exploreSearch, probeSearch, walkPages } from "./search.ts";
import { exploreTriggers, listTriggers, unknownBot } from "./triggers.ts";

/** What the phases of one run hand on: to later phases, to discovery, and to the report. */
export interface RunState {
  /** The triggers of `--agent-stage-id` and the answer that listed them, once listed. */
  listed?: { readonly triggers: ExternalEventTrigger[]; readonly exchange: Exchange } | undefined;
  /** What discovery reads besides the session's knowledge. */
  readonly discovery: { -readonly [Key in keyof DiscoveryInput]: DiscoveryInput[Key] };
  /** The findings, once discovered. */
  findings: Finding[];
  /** Every conversation read twice before the fires (`fire_changes_its_conversation`), once read. */
  beforeFires?: readonly ConversationsRead[] | undefined;
  /** Warnings for the report. */
  readonly warnings: string[];
}

/** What decides whether a phase runs: firing allowed, and the bot's triggers listed (in a plan: a bot given). */
export interface PhaseConditions {
  readonly allowFire: boolean;
  readonly triggersListed: boolean;
}

/** One phase of a run: its name (progress, timings), the checks it feeds (read from the catalog: the checks whose entry names the phase), when it does not run, and what it does. */
export interface Phase {
  readonly name: string;
  readonly checks: readonly CheckName[];
  /** Why the phase does not run under these conditions; its checks that no running phase feeds are reported not run, with this reason. */
  readonly unless?: (conditions: PhaseConditions) => string | undefined;
  run(session: Session, state: RunState): Promise<void>;
}

/** A step of the plan (`--dry-run`): what it does in words, and its phases in run order. */
export interface Step {
  readonly plan: (options: ResolvedOptions) => string;
  readonly phases: readonly Phase[];
}

/** A phase as the table below writes it: its checks are the catalog's (`checksOfPhase`). */
type PhaseOfTable = Omit<Phase, "checks">;

const firingOff = ({ allowFire }: PhaseConditions): string | undefined => (allowFire ? undefined : "firing is off: pass --allow-fire with --conversation-id");
const needsTriggers = (conditions: PhaseConditions): string | undefined =>
  firingOff(conditions) ?? (conditions.triggersListed ? undefined : "needs --agent-stage-id: the variables come from the bot's triggers");

/** The phases of the run as written, grouped in the steps a plan shows, in run order; `steps` adds each phase's checks from the catalog. */
const table: ReadonlyArray<{ readonly plan: Step["plan"]; readonly phases: readonly PhaseOfTable[] }> = [
  {
    plan: (options) =>
      `probe: one search; ${options.agentStageId ? `the trigger list of ${options.agentStageId} (a 404 stops the run: unknown bot)` : "no bot given: trigger checks use unknown bots only"}`,
    phases: [{ name: "preflight: --agent-stage-id", run: (session) => confirmBot(session) }],
  },
  {
    plan: () =>
      "searches: the first page, a walk of every page, the edges (page sizes, pages, each status and channel alone, date bounds ±1 ms), two filters against each alone (every page walked), generated searches over every filter, combination, period, page size and page against a model of the server's own data (the walk), the bot filter's near misses, searches that match nothing, generated searches, and invalid ones (reported, not judged)",
    phases: [
      {
        name: "searchConversations: first page",
        run: async (session) => {
          await probeSearch(session);
        },
      },
      {
        name: "searchConversations: walk every page, and again at another page size",
        run: (session) => walkPages(session),
      },
      {
        name: "preflight: the conversation to fire into",
        run: async (session, state) => {
          const unconfirmed = await confirmConversation(session);
          if (unconfirmed) state.warnings.push(unconfirmed);
        },
      },
      {
        name: "searchConversations: edges",
        run: (session) => exploreEdges(session),
      },
      {
        name: "searchConversations: combined filters",
        run: (session) => checkFilterCombinations(session),
      },
      {
        name: "searchConversations and listExternalEventTriggers: answers in turn sent again at once",
        run: (session) => checkConcurrentAnswers(session),
      },
      {
        name: "searchConversations: generated searches against the model of the server's data",
        run: (session) => checkSearchModel(session),
      },
      {
        name: "searchConversations: the bot filter and searches that match nothing",
        run: async (session, state) => {
          state.discovery.unknownBotSearch = await checkBotFilter(session);
          await checkEmptySearches(session);
        },
      },
      {
        name: "searchConversations: generated requests",
        run: (session) => exploreSearch(session),
      },
      { name: "searchConversations: invalid requests (reported, not judged)", run: (session) => exploreInvalidSearch(session) },
    ],
  },
  {
    plan: () =>
      "trigger lists: generated bots and an unknown bot; the known bot's id cut, with a character more, with a reserved character, percent-encoded and in another letter case, on the trigger list and the search",
    phases: [
      { name: "listExternalEventTriggers: generated requests", run: (session) => exploreTriggers(session) },
      { name: "listExternalEventTriggers: unknown bot", run: (session) => unknownBot(session) },
      {
        name: "listExternalEventTriggers: the bot's triggers",
        run: async (session, state) => {
          state.listed = await listTriggers(session);
          state.discovery.triggerList = state.listed?.exchange;
        },
      },
      {
        name: "identifiers: near misses and encodings of the bot's id",
        run: async (session, state) => {
          state.discovery.letterCase = await checkBotIdentifiers(session, state.listed?.exchange);
        },
      },
    ],
  },
  {
    plan: (options) =>
      `authentication: no token, a wrong or empty one, every near miss of the token (cut, a character more, re-cased, spaced, doubled, quoted, behind Bearer), the token on every other channel (query string, Authorization, a cookie, other headers), a wrong one on a later filtered page and for an unknown bot, trigger and conversation (401, never 404)${options.allowFire ? " (fire requests carry a value the variable's type refuses, or name unknown conversations)" : ""}`,
    phases: [
      {
        name: "every operation: authentication",
        run: async (session, state) => {
          await checkAuthentication(session, state.listed?.triggers ?? []);
        },
      },
    ],
  },
  {
    plan: (options) =>
      `Accept and undocumented methods: ${options.allowFire ? "GET, PUT, PATCH, DELETE where undocumented" : "GET on the fire path and DELETE on an unknown bot's trigger list only"}`,
    phases: [
      {
        name: "every path: Accept and undocumented methods",
        run: async (session) => {
          await checkAcceptNegotiation(session);
          await checkUnsupportedMethods(session);
        },
      },
    ],
  },
  {
    plan: (options) => (options.exportPath ? `exports through ${options.exportPath}` : "exports: none (no --export-path)"),
    phases: [{ name: "export route", run: (session) => checkExports(session) }],
  },
  {
    plan: (options) =>
      options.allowFire
        ? `FIRING into ${options.conversationId ?? options.externalConversationId}: unknown triggers and conversations, invalid bodies, each near miss of each variable type on every trigger, right values (real events) and wrong values (stopped after the first one of a type accepted), a fire without a payload and with an empty one (real events), payloads that are no object, and one unlisted variable`
        : "firing: off (read-only; --allow-fire with --conversation-id to fire)",
    phases: [
      {
        name: "fireExternalEvent: every conversation before the fires",
        unless: firingOff,
        run: async (session, state) => {
          state.beforeFires = await readBeforeFires(session);
        },
      },
      {
        name: "fireExternalEvent: invalid requests",
        unless: firingOff,
        run: (session, state) => exploreInvalidFire(session, state.listed?.triggers ?? []),
      },
      {
        name: "fireExternalEvent: unknown trigger and conversation",
        unless: firingOff,
        run: (session, state) => checkFireNotFound(session, state.listed?.triggers ?? []),
      },
      {
        name: "fireExternalEvent: variable values",
        unless: needsTriggers,
        run: async (session, state) => {
          await checkExternalIdentifier(session, await checkPayloads(session, state.listed?.triggers ?? []));
          state.discovery.dateTimeVariableForms = await probeOpenForms(session, state.listed?.triggers ?? []);
        },
      },
      {
        name: "fireExternalEvent: payload present or not, and its shape",
        unless: needsTriggers,
        run: async (session, state) => {
          state.discovery.unlistedVariable = await checkPayloadForms(session, state.listed?.triggers ?? []);
        },
      },
      {
        name: "fireExternalEvent: the conversation's id with a JSON escape",
        unless: needsTriggers,
        run: (session, state) => checkEscapedConversation(session, state.listed?.triggers ?? []),
      },
      {
        name: "fireExternalEvent: both identifiers",
        unless: needsTriggers,
        run: async (session, state) => {
          state.discovery.precedence = await probeIdentifierPrecedence(session, state.listed?.triggers ?? []);
        },
      },
      {
        name: "fireExternalEvent: each listed trigger with every variable it lists",
        unless: needsTriggers,
        run: (session, state) => checkListedTriggersFire(session, state.listed?.triggers ?? []),
      },
      {
        name: "fireExternalEvent: every conversation after the fires",
        unless: firingOff,
        run: (session, state) => checkWhatFiresChanged(session, state.beforeFires),
      },
    ],
  },
  {
    plan: () => "discovery of the open points: a few searches, one HEAD and one OPTIONS on the search path",
    phases: [
      {
        name: "discovery of open points",
        run: async (session, state) => {
          state.findings = await discover(session, state.discovery);
        },
      },
    ],
  },
];

/**
 * The phases of a run, grouped in the steps a plan shows, in the order they run, each with the checks it feeds
 * (the catalog's). The probe, which decides whether the server can be checked at all, comes before them (`runner.ts`).
 */
export const steps: readonly Step[] = table.map((step) => ({
  plan: step.plan,
  phases: step.phases.map((phase) => ({ ...phase, checks: checksOfPhase(phase.name) })),
}));

// A phase the catalog names is a phase of the table: a renamed phase would otherwise feed its checks nowhere.
const phaseNames = new Set(table.flatMap((step) => step.phases.map((phase) => phase.name)));
for (const name of checkNames)
  for (const phase of catalogEntry(name).phases)
    if (!phaseNames.has(phase)) throw new Error(`checkCatalog: ${name} names the phase "${phase}", which phases/index.ts does not run`);

/** Every phase, in run order. */
export const phases: readonly Phase[] = steps.flatMap((step) => step.phases);

/**
 * The checks a phase that does not run leaves not run: those of its checks that no phase running
 * under the same conditions feeds (`negative_data_rejection` is fed by the searches when firing is off).
 */
export function checksLeftOut(phase: Phase, conditions: PhaseConditions): CheckName[] {
  const fed = new Set(phases.filter((other) => other.unless?.(conditions) === undefined).flatMap((other) => other.checks));
  return phase.checks.filter((name) => !fed.has(name));
}
