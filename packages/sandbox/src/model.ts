/**
 * The sandbox's data model, shared by every part: the bots and conversations it serves, the data a
 * fixture gives, the named starting states, and where a sandbox's data comes from. Types only (and
 * the list of states they are read from): this file imports nothing of the sandbox.
 */
import type { ConversationExport, ExternalEventTrigger } from "@bot-conversation/types";

/** A bot and its triggers, as stored. */
export interface StoredBot {
  /** Bot identifier. */
  readonly agentStageId: string;
  /** The bot's triggers, in their order. */
  readonly triggers: readonly ExternalEventTrigger[];
}

/** A conversation as stored: its bot, start, and export (the summary is derived from the export). */
export interface StoredConversation {
  /** The bot the conversation belongs to. */
  readonly agentStageId: string;
  /** Start of the conversation, as given (ISO 8601 with offset). */
  readonly startedOn: string;
  /** The conversation as the export model. */
  readonly conversation: ConversationExport;
}

/** Data to load in place of generated data: bots with their triggers, and conversations with their export. */
export interface Fixture {
  /** The bots, each with the triggers that can be fired for it. */
  readonly bots: readonly StoredBot[];
  /** The conversations, each of a bot listed in `bots`. */
  readonly conversations: readonly StoredConversation[];
}

/** The named starting states of the sandbox. */
export const sandboxStates = ["default", "empty", "bot-without-triggers", "large"] as const;

/** A named starting state: `default` (the seed's data), `empty` (the bots and triggers, no conversation), `bot-without-triggers` (default, but the first bot has no trigger), `large` (10,000 conversations). */
export type SandboxState = (typeof sandboxStates)[number];

/** Conversations of the `large` state. */
export const largeConversations = 10_000;

/** The largest number of conversations the generator accepts. */
export const maxConversations = 1_000_000;

/** The number of conversations a state sets itself (`large`, `empty`), or `undefined`. */
export function stateCount(state: SandboxState): number | undefined {
  return state === "large" ? largeConversations : state === "empty" ? 0 : undefined;
}

/** Generated data: from a seed, a number of conversations and a named state. */
export type GeneratedSource = { readonly seed: string; readonly conversations: number; readonly state?: SandboxState };

/** Where the data comes from: generated from a seed (in a named state), or a checked fixture. */
export type DataSource = GeneratedSource | { readonly fixture: Fixture };

/** Data ready to load: the bots, and each conversation by its number, from 0 to `count - 1`. */
export interface SandboxData {
  /** The bots, each with its triggers. */
  readonly bots: readonly StoredBot[];
  /** Number of conversations. */
  readonly count: number;
  /** The conversation numbered `index` (a generated one may be generated afresh on each call). */
  conversationAt(index: number): StoredConversation;
  /**
   * The conversation numbered `index` as the search index reads it, when the source has a cheaper one than
   * `conversationAt`: the same but for what no search reads (generated data leaves its history's identifiers and its
   * events' timestamps empty).
   */
  searchedAt?(index: number): StoredConversation;
}

/** The log formats of `--log-format`. */
export const logFormats = ["json", "pretty"] as const;

/** A log format: `json` (one JSON object per line) or `pretty` (for a person at a terminal). */
export type LogFormat = (typeof logFormats)[number];
