import { readFile } from "node:fs/promises";
import { controlChecker, type Defect } from "./description.ts";
import type { StoredBot, StoredConversation } from "./storage.ts";

/** Data to load in place of generated data: bots with their triggers, and conversations with their export. */
export interface Fixture {
  /** The bots, each with the triggers that can be fired for it. */
  readonly bots: readonly StoredBot[];
  /** The conversations, each of a bot listed in `bots`. */
  readonly conversations: readonly StoredConversation[];
}

/** A fixture was refused; `defects` lists the JSON path and the problem of every defect. */
export class FixtureError extends Error {
  override name = "FixtureError";
  /** Every defect found. */
  readonly defects: readonly Defect[];

  constructor(defects: readonly Defect[]) {
    super(`The fixture has ${defects.length} defect${defects.length === 1 ? "" : "s"}:\n${defects.map((defect) => `${defect.path}: ${defect.message}`).join("\n")}`);
    this.defects = defects;
  }
}

const checkShape = controlChecker({ $ref: "#/components/schemas/Fixture" });

/**
 * Every defect of a fixture: its shape against the control API's `Fixture` schema (whose parts are
 * the service description's `ExternalEventTrigger` and `ConversationExport`), then what a schema
 * cannot say: identifiers unique, every conversation of a listed bot, platform sessions unique.
 */
export function fixtureDefects(value: unknown): Defect[] {
  const shape = checkShape(value);
  if (shape.length > 0) return shape;
  const fixture = value as Fixture;
  const defects: Defect[] = [];
  const firstPlace = new Map<string, string>();
  const unique = (kind: string, key: string, path: string) => {
    const first = firstPlace.get(`${kind}\u0000${key}`);
    if (first === undefined) firstPlace.set(`${kind}\u0000${key}`, path);
    else defects.push({ path, message: `duplicate ${kind} ${JSON.stringify(key)}, first at ${first}` });
  };
  fixture.bots.forEach((bot, botIndex) => {
    unique("agentStageId", bot.agentStageId, `$.bots[${botIndex}].agentStageId`);
    bot.triggers.forEach((trigger, triggerIndex) =>
      unique(`externalEventId of bot ${bot.agentStageId}:`, trigger.externalEventId, `$.bots[${botIndex}].triggers[${triggerIndex}].externalEventId`),
    );
  });
  const bots = new Set(fixture.bots.map((bot) => bot.agentStageId));
  fixture.conversations.forEach((entry, index) => {
    if (!bots.has(entry.agentStageId)) defects.push({ path: `$.conversations[${index}].agentStageId`, message: `no bot ${JSON.stringify(entry.agentStageId)} in $.bots` });
    unique("conversation id", entry.conversation.id, `$.conversations[${index}].conversation.id`);
    const sessionId = entry.conversation.channelData?.platform.session.id;
    if (sessionId !== undefined) unique("platform session id", sessionId, `$.conversations[${index}].conversation.channelData.platform.session.id`);
  });
  return defects;
}

/** Checks a fixture and returns it, or throws a `FixtureError` listing every defect. */
export function checkFixture(value: unknown): Fixture {
  const defects = fixtureDefects(value);
  if (defects.length > 0) throw new FixtureError(defects);
  return value as Fixture;
}

/** Reads a fixture from a JSON file and checks it; a file that is not JSON is a `FixtureError` at `$`. */
export async function readFixture(path: string): Promise<Fixture> {
  const text = await readFile(path, "utf8");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new FixtureError([{ path: "$", message: `${path} is not JSON: ${(error as Error).message}` }]);
  }
  return checkFixture(value);
}
