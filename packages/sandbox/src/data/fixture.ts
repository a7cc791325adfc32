import { controlChecker, type Defect } from "../description.ts";
import type { Fixture } from "../model.ts";

export { maxFixtureBytes } from "./fixture-limit.ts";

/** A fixture was refused; `defects` lists the JSON path and the problem of every defect. */
export class FixtureError extends Error {
  override name = "FixtureError";
  /** Every defect found. */
  readonly defects: readonly Defect[];

  constructor(defects: readonly Defect[]) {
    super(
      `The fixture has ${defects.length} defect${defects.length === 1 ? "" : "s"}:\n${defects.map((defect) => `${defect.path}: ${defect.message}`).join("\n")}`,
    );
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
  const defects = checkShape(value);
  // The cross checks read only the parts that have the right type, so a fixture gets every defect at once.
  const fixture = value as { bots?: unknown; conversations?: unknown };
  const list = (items: unknown) => (Array.isArray(items) ? (items as unknown[]) : []).map((item) => (isObject(item) ? item : {}));
  const text = (item: unknown) => (typeof item === "string" ? item : undefined);
  const firstPlace = new Map<string, string>();
  const unique = (kind: string, key: string | undefined, path: string) => {
    if (key === undefined) return;
    const first = firstPlace.get(`${kind}\u0000${key}`);
    if (first === undefined) firstPlace.set(`${kind}\u0000${key}`, path);
    else defects.push({ path, message: `duplicate ${kind} ${JSON.stringify(key)}, first at ${first}` });
  };
  const bots = list(fixture?.bots);
  bots.forEach((bot, botIndex) => {
    unique("agentStageId", text(bot["agentStageId"]), `$.bots[${botIndex}].agentStageId`);
    list(bot["triggers"]).forEach(
      (trigger, triggerIndex) =>
        void unique(
          `externalEventId of bot ${String(bot["agentStageId"])}:`,
          text(trigger["externalEventId"]),
          `$.bots[${botIndex}].triggers[${triggerIndex}].externalEventId`,
        ),
    );
  });
  const known = new Set(bots.map((bot) => bot["agentStageId"]));
  list(fixture?.conversations).forEach((entry, index) => {
    const agentStageId = text(entry["agentStageId"]);
    if (agentStageId !== undefined && !known.has(agentStageId))
      defects.push({ path: `$.conversations[${index}].agentStageId`, message: `no bot ${JSON.stringify(agentStageId)} in $.bots` });
    const conversation = isObject(entry["conversation"]) ? entry["conversation"] : {};
    unique("conversation id", text(conversation["id"]), `$.conversations[${index}].conversation.id`);
    const channelData = conversation["channelData"] as { platform?: { session?: { id?: unknown } } } | null | undefined;
    unique("platform session id", text(channelData?.platform?.session?.id), `$.conversations[${index}].conversation.channelData.platform.session.id`);
  });
  return defects;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Checks a fixture and returns it, or throws a `FixtureError` listing every defect. */
export function checkFixture(value: unknown): Fixture {
  const defects = fixtureDefects(value);
  if (defects.length > 0) throw new FixtureError(defects);
  return value as Fixture;
}
