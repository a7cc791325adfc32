/**
 * The entities the traffic showed: every bot (a trigger list answered 200, or a search by its
 * `agentStageId`), its triggers as the upstream listed them, and every conversation of a search page,
 * kept as its summary (pseudonymised and redacted already) and rebuilt for the fixture by the
 * sandbox's own inverse of its summary (`conversationOfSummary`). The fixture is written in the
 * sandbox's format, in a stable order: bots by `agentStageId`, conversations by bot then id.
 * Memory stays small however many conversations pass, and the stop stays short: each summary is rebuilt
 * and checked as it comes (pseudonymised and redacted already), its record appended to a scratch file in
 * the recording's folder, and only its place in the file is kept in memory; the stop sorts the places and
 * copies the records; the scratch file is removed once the fixture is written.
 */
import { once } from "node:events";
import { closeSync, createWriteStream, openSync, readSync, rmSync, writeSync } from "node:fs";
import { readTriggerList } from "@bot-conversation/conformance";
import { conversationOfSummary, fixtureDefects } from "@bot-conversation/sandbox";
import type { ConversationSummary, ExternalEventTrigger } from "@bot-conversation/types";

/** What the fixture holds and what was left out of it. */
export interface FixtureSummary {
  /** Bots written. */
  readonly bots: number;
  /** Triggers written, over every bot. */
  readonly triggers: number;
  /** Conversations written. */
  readonly conversations: number;
  /** What was left out, and why (one line each, identifiers only). */
  readonly leftOut: readonly string[];
}

/** A conversation kept: its bot, and its checked record's place in the scratch file (and its platform session), or why it is refused. */
type KeptConversation =
  | { readonly agentStageId: string; readonly offset: number; readonly length: number; readonly session: string | undefined }
  | { readonly agentStageId: string; readonly refused: string };

/** Bots, triggers and conversations seen, ready to be written as a sandbox fixture. */
export class RecordedEntities {
  /**
   * The bots learned (each with a conversation of its own), each mapped to the one string of its id that every
   * conversation kept under it holds: each page parses the id again, and 100,000 conversations held 100,000 copies.
   */
  readonly #bots = new Map<string, string>();
  /** agentStageId → its triggers as listed, for every trigger list recorded. */
  readonly #lists = new Map<string, readonly ExternalEventTrigger[]>();
  readonly #contradictions = new Set<string>();
  /**
   * conversation id → its bot, and either where its rebuilt record (checked already) is in the scratch file
   * with its platform session, or why the sandbox would refuse it.
   */
  readonly #conversations = new Map<string, KeptConversation>();
  readonly #unplaced = new Set<string>();
  readonly #scratchPath: string;
  #scratch: { readonly descriptor: number; size: number } | undefined;

  /** `scratchPath`: the file the summaries are kept in until the fixture is written. */
  constructor(scratchPath: string) {
    this.#scratchPath = scratchPath;
  }

  /**
   * A summary rebuilt as the sandbox's record of the conversation and checked as the sandbox checks a
   * fixture, as it comes (so the stop only copies bytes): the record appended to the scratch file, or why
   * the sandbox would refuse it.
   */
  #keep(summary: ConversationSummary, agentStageId: string): KeptConversation {
    const rebuilt = conversationOfSummary(summary, agentStageId);
    if ("refused" in rebuilt) return { agentStageId, refused: rebuilt.refused };
    const defects = fixtureDefects({ bots: [{ agentStageId, triggers: [] }], conversations: [rebuilt.stored] });
    if (defects.length > 0)
      return {
        agentStageId,
        refused: `does not fit the description (${defects[0]!.path.replace("$.conversations[0].conversation", "conversation")}: ${defects[0]!.message})`,
      };
    this.#scratch ??= { descriptor: openSync(this.#scratchPath, "w+", 0o600), size: 0 };
    const bytes = Buffer.from(JSON.stringify(rebuilt.stored));
    const offset = this.#scratch.size;
    writeSync(this.#scratch.descriptor, bytes, 0, bytes.length, offset);
    this.#scratch.size += bytes.length;
    const session = rebuilt.stored.conversation.channelData?.platform?.session?.id;
    return { agentStageId, offset, length: bytes.length, session: typeof session === "string" ? session : undefined };
  }

  /** The buffer records are read into, grown to the longest read so far: one buffer, not one per record (each lived off the heap until a collection). */
  #readBuffer = Buffer.alloc(0);

  /** The record kept at a place of the scratch file, as its text. */
  #recordAt(offset: number, length: number): string {
    if (this.#readBuffer.length < length) this.#readBuffer = Buffer.alloc(Math.max(length, 2 * this.#readBuffer.length));
    readSync(this.#scratch!.descriptor, this.#readBuffer, 0, length, offset);
    return this.#readBuffer.toString("utf8", 0, length);
  }

  /** Removes the scratch file. */
  discard(): void {
    if (!this.#scratch) return;
    closeSync(this.#scratch.descriptor);
    rmSync(this.#scratchPath, { force: true });
    this.#scratch = undefined;
  }

  /**
   * A search page answered 200: each item kept under the bot the search named, or else its `Bot` member (the
   * sandbox's convention). A bot is learned only with a conversation of its own: a conversation already kept
   * under another bot stays there (a service answering any bot with the same conversations, as a mock
   * serving its examples does, teaches no bot of its own), and is noted.
   */
  search(agentStageId: string | undefined, items: readonly ConversationSummary[]): void {
    for (const item of items) {
      if (typeof item?.id !== "string") continue;
      const bot = agentStageId ?? (Array.isArray(item.members) ? item.members.find((member) => member?.role === "Bot")?.id : undefined);
      if (bot === undefined) {
        this.#unplaced.add(item.id);
        continue;
      }
      const known = this.#conversations.get(item.id)?.agentStageId;
      if (known !== undefined && known !== bot) {
        this.#contradictions.add(`conversation ${item.id}: answered for bot ${bot} too; kept under bot ${known}, where it was seen first`);
        continue;
      }
      let kept = this.#bots.get(bot);
      if (kept === undefined) this.#bots.set(bot, (kept = bot));
      this.#unplaced.delete(item.id);
      this.#conversations.set(item.id, this.#keep(item, kept));
    }
  }

  /** A trigger list answered 200 for a bot: its descriptors as listed, whatever the list's shape. */
  triggers(agentStageId: string, body: unknown): void {
    const list = readTriggerList(body);
    if (list.shape !== "other") this.#lists.set(agentStageId, list.triggers as ExternalEventTrigger[]);
  }

  /** The bot a conversation was seen under, when it was seen in a search. */
  botOf(conversationId: string): string | undefined {
    return this.#conversations.get(conversationId)?.agentStageId;
  }

  /** The triggers recorded for a bot, or undefined when its trigger list was never recorded. */
  triggersOf(agentStageId: string): readonly ExternalEventTrigger[] | undefined {
    return this.#lists.get(agentStageId);
  }

  /** Every recorded trigger list, by bot (learned or not). */
  triggerLists(): ReadonlyMap<string, readonly ExternalEventTrigger[]> {
    return this.#lists;
  }

  /** The bots of the fixture whose trigger list was never recorded (they replay with no trigger), in order. */
  botsWithoutTriggerList(): string[] {
    return [...this.#bots.keys()].filter((bot) => !this.#lists.has(bot)).sort();
  }

  /** Writes the fixture to `path`, one conversation a line, and says what it holds; anything the sandbox would refuse is left out and named. */
  async write(path: string): Promise<FixtureSummary> {
    const leftOut: string[] = [];
    const bots = [...this.#bots.keys()].sort().map((agentStageId) => {
      let triggers = [...(this.#lists.get(agentStageId) ?? [])];
      // A descriptor the sandbox refuses (it does not fit the description) is left out, by its place in the list.
      const refused = new Set(
        fixtureDefects({ bots: [{ agentStageId, triggers }], conversations: [] }).flatMap((defect) => {
          const index = /^\$\.bots\[0\]\.triggers\[(\d+)\]/.exec(defect.path)?.[1];
          return index === undefined ? [] : [Number(index)];
        }),
      );
      if (refused.size > 0) {
        leftOut.push(`bot ${agentStageId}: ${refused.size} trigger(s) that do not fit the description (places ${[...refused].join(", ")} of its list)`);
        triggers = triggers.filter((_, index) => !refused.has(index));
      }
      return { agentStageId, triggers };
    });
    // Large buffers: a write per conversation, waiting for a drain every few kilobytes, made a long stop.
    const out = createWriteStream(path, { highWaterMark: 4 * 2 ** 20 });
    let failure: Error | undefined;
    out.on("error", (error) => (failure ??= error));
    const write = async (text: string) => {
      if (failure) throw failure;
      if (!out.write(text)) await once(out, "drain");
    };
    await write(`{\n"bots": [\n${bots.map((bot) => JSON.stringify(bot)).join(",\n")}\n],\n"conversations": [\n`);
    // By bot, then by id: the ids grouped under their bot and each group sorted (no pair per conversation).
    const byBot = new Map<string, string[]>();
    for (const [id, kept] of this.#conversations) {
      const ids = byBot.get(kept.agentStageId);
      if (ids) ids.push(id);
      else byBot.set(kept.agentStageId, [id]);
    }
    const order = [...byBot.keys()].sort(compare).flatMap((bot) => byBot.get(bot)!.sort(compare));
    const sessions = new Set<string>();
    let written = 0;
    for (const id of order) {
      const kept = this.#conversations.get(id)!;
      if ("refused" in kept) {
        leftOut.push(`conversation ${id}: ${kept.refused}`);
        continue;
      }
      if (kept.session !== undefined) {
        if (sessions.has(kept.session)) {
          leftOut.push(`conversation ${id}: its platform session is another conversation's already (the sandbox finds a conversation by its session)`);
          continue;
        }
        sessions.add(kept.session);
      }
      await write(`${written === 0 ? "" : ",\n"}${this.#recordAt(kept.offset, kept.length)}`);
      written += 1;
    }
    await write(`${written === 0 ? "" : "\n"}]\n}\n`);
    out.end();
    if (!out.closed) await once(out, "close");
    if (failure) throw failure;
    for (const bot of [...this.#lists.keys()].filter((bot) => !this.#bots.has(bot)).sort())
      leftOut.push(
        `bot ${bot}: its trigger list was recorded, but no conversation of it (a service that answers any bot is told apart only so), so it is not learned`,
      );
    leftOut.push(...this.#contradictions);
    for (const id of [...this.#unplaced].sort())
      leftOut.push(`conversation ${id}: seen in a search without agentStageId and with no Bot member, so its bot is not known`);
    return { bots: bots.length, triggers: bots.reduce((sum, bot) => sum + bot.triggers.length, 0), conversations: written, leftOut };
  }
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
