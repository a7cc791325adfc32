import type { ExternalEventTrigger, VariableType } from "@bot-conversation/types";
import { variableTypes } from "@bot-conversation/types";
import fc from "fast-check";
import { caseFor, type Exchange } from "../case.ts";
import { rejectionOf } from "../checks/data.ts";
import type { ProbeFamily } from "../checks/family.ts";
import {
  conversationIdNearMissesFamily,
  notFound,
  payloadAcceptance,
  payloadRejection,
  payloadShapeRejection,
  triggerIdNearMissesFamily,
  variableLaterPositionFamily,
  variableNearMissesFamily,
  variableRightValuesFamily,
} from "../checks/fire.ts";
import { identifierEncodingsFamily, sameAsIdentifier } from "../checks/identifiers.ts";
import type { CheckName } from "../checks/index.ts";
import type { ExchangeCheck } from "../checks/types.ts";
import { operationOf } from "../description.ts";
import { familiarValues, invalidBody, rightValue, ruledOut, type TriggerVariable, withoutRequired, wrongValue } from "../generate.ts";
import { jsonEscaped, nearMissesOfIdentifier } from "../identifiers.ts";
import { linkedBody } from "../links.ts";
import type { Session } from "../session.ts";
import { nearMissesOf, openFormsOf } from "../variable-values.ts";
import { unknownIdentifier } from "./triggers.ts";

const operationId = "fireExternalEvent";

/** How many values per variable type are fired (each run fires a real event). */
const valuesPerType = 2;

/** The conversation the run fires into, by the identifier given on the command line. */
export function target(session: Session): Record<string, string> {
  const { conversationId, externalConversationId } = session.settings;
  return conversationId ? { conversationId } : { externalConversationId: externalConversationId! };
}

/**
 * The fire body fields the trigger list's links carry for `trigger` (the description's `fireTrigger`: its
 * `externalEventId`), read from the list as the description shapes it, with that trigger first (the link names
 * the first; any listed trigger fires the same way); the trigger's `externalEventId` when no link leads to a fire.
 */
export function triggerFields(session: Session, trigger: ExternalEventTrigger): Record<string, unknown> {
  const request = caseFor(operationOf(session.description, "listExternalEventTriggers"), { path: { agentStageId: session.settings.agentStageId ?? "" } });
  const carried = linkedBody(session.description, operationId, [{ operationId: "listExternalEventTriggers", request, body: [trigger] }]);
  return Object.keys(carried).length > 0 ? carried : { externalEventId: trigger.externalEventId };
}

/** Sends one fire request with the token, judged by the response checks and `checks`; undefined when no answer came. */
async function fire(
  session: Session,
  body: Record<string, unknown>,
  checks: ReadonlyArray<readonly [CheckName, ExchangeCheck]> = [],
  family?: ProbeFamily,
): Promise<{ exchange: Exchange; failed: CheckName[] } | undefined> {
  return session.exchange({ ...caseFor(operationOf(session.description, operationId), { body }), ...(family ? { family } : {}) }, checks);
}

/** For each variable type, the first variable of a listed trigger that has it. */
export function variablesByType(triggers: readonly ExternalEventTrigger[]): Map<VariableType, TriggerVariable> {
  const found = new Map<VariableType, TriggerVariable>();
  for (const trigger of triggers) {
    for (const [code, parameter] of Object.entries(trigger.parameters ?? {})) {
      if ((variableTypes as readonly string[]).includes(parameter.type) && !found.has(parameter.type)) {
        found.set(parameter.type, { trigger, code, type: parameter.type });
      }
    }
  }
  return found;
}

/** Every variable of every listed trigger whose type the table lists. */
export function allVariables(triggers: readonly ExternalEventTrigger[]): TriggerVariable[] {
  return triggers.flatMap((trigger) =>
    Object.entries(trigger.parameters ?? {}).flatMap(([code, parameter]) =>
      (variableTypes as readonly string[]).includes(parameter.type) ? [{ trigger, code, type: parameter.type }] : [],
    ),
  );
}

/**
 * `trigger-id-near-misses`: an unknown trigger, and the known trigger's id cut or with a character more,
 * are 404; `conversation-id-near-misses`: so are an unknown conversation by either identifier, the known
 * conversationId cut or with a character more, and a known platform session with another suffix than
 * `|livechat`; `identifier-encodings`: the known conversationId with a character written as a JSON
 * escape fires as the id itself (a real event).
 */
export async function checkFireNotFound(session: Session, triggers: readonly ExternalEventTrigger[]): Promise<void> {
  const unknownTrigger = unknownIdentifier(session, "trigger");
  // The trigger identifier the list's link carries into a fire (its near misses are made from it).
  const listed = triggers[0] ? triggerFields(session, triggers[0])["externalEventId"] : undefined;
  const knownTrigger = typeof listed === "string" ? listed : unknownTrigger;
  const expect404 = async (
    family: typeof triggerIdNearMissesFamily | typeof conversationIdNearMissesFamily,
    what: string,
    body: Record<string, unknown>,
  ): Promise<void> => {
    const name = family === triggerIdNearMissesFamily ? "unknown_trigger_not_found" : "unknown_conversation_not_found";
    if (session.canSend) await session.exchange({ ...caseFor(operationOf(session.description, operationId), { body }), family }, [[name, notFound(what)]]);
  };
  await expect404(triggerIdNearMissesFamily, "an unknown externalEventId", { ...target(session), externalEventId: unknownTrigger });
  if (triggers[0])
    for (const miss of nearMissesOfIdentifier(knownTrigger))
      await expect404(triggerIdNearMissesFamily, `externalEventId ${JSON.stringify(miss.value)}, the trigger ${JSON.stringify(knownTrigger)} ${miss.what}`, {
        ...target(session),
        externalEventId: miss.value,
      });
  await expect404(conversationIdNearMissesFamily, "an unknown conversationId", {
    conversationId: unknownIdentifier(session, "conversation"),
    externalEventId: knownTrigger,
  });
  await expect404(conversationIdNearMissesFamily, "an unknown externalConversationId", {
    externalConversationId: `${unknownIdentifier(session, "session")}|livechat`,
    externalEventId: knownTrigger,
  });
  const { conversationId } = session.settings;
  if (conversationId)
    for (const miss of nearMissesOfIdentifier(conversationId))
      await expect404(
        conversationIdNearMissesFamily,
        `conversationId ${JSON.stringify(miss.value)}, the conversation ${JSON.stringify(conversationId)} ${miss.what}`,
        {
          conversationId: miss.value,
          externalEventId: knownTrigger,
        },
      );
  // A known platform session with another suffix than |livechat names no conversation either.
  const knownSession = platformSessionOf(session);
  if (knownSession) {
    const otherSuffix = `${knownSession}|conformance`;
    await expect404(conversationIdNearMissesFamily, `externalConversationId ${otherSuffix}, a known session with another suffix than |livechat`, {
      externalConversationId: otherSuffix,
      externalEventId: knownTrigger,
    });
  }
}

/** `identifier-encodings` in a body: the known conversationId with its first character as a JSON escape fires as the id itself (a real event; needs a listed trigger). */
export async function checkEscapedConversation(session: Session, triggers: readonly ExternalEventTrigger[]): Promise<void> {
  const { conversationId } = session.settings;
  const trigger = triggers[0];
  if (!conversationId || !trigger || !session.canSend) return;
  const operation = operationOf(session.description, operationId);
  const body = { conversationId, ...triggerFields(session, trigger) };
  const plain = await fire(session, body);
  const rawBody = `{"conversationId":${jsonEscaped(conversationId)},${JSON.stringify(triggerFields(session, trigger)).slice(1)}`;
  await session.exchange({ ...caseFor(operation, { body }), rawBody, family: identifierEncodingsFamily }, [
    ["identifier_encoding", sameAsIdentifier(`conversationId ${jsonEscaped(conversationId)} (the id with a JSON escape)`, plain?.exchange)],
  ]);
}

/** The session id of a platform conversation: from --external-conversation-id, else from a conversation seen. */
function platformSessionOf(session: Session): string | undefined {
  const given = session.settings.externalConversationId;
  if (given?.endsWith("|livechat")) return given.slice(0, -"|livechat".length);
  for (const item of session.knowledge.items.values()) {
    const id = (item["channelData"] as { platform?: { session?: { id?: unknown } } } | null | undefined)?.platform?.session?.id;
    if (typeof id === "string" && id !== "") return id;
  }
  return undefined;
}

/**
 * Every variable of every listed trigger gets each near miss of its type from the variable-type table
 * (`true` for a Number, `"1"` for a Boolean, an epoch integer for a DateTime, ...): a 500 with details;
 * then, on triggers with several variables, each near miss after right values (`checkLaterPositions`).
 * Then, per type, generated wrong values (shrunk) and right values: a 200 with an empty body. Each
 * request fires into the given conversation; once a wrong value of a type is accepted (a real event),
 * no more wrong values of that type are sent.
 */
/** The first wrong value fired for a variable and the status it was answered with (what a later probe may reuse instead of firing it again). */
export interface FirstRefusal {
  readonly variable: TriggerVariable;
  readonly value: unknown;
  readonly what: string;
  readonly status: number;
}

/** Fires every variable's near misses and generated wrong and right values; returns the first wrong value fired of each variable, with its answer's status. */
export async function checkPayloads(session: Session, triggers: readonly ExternalEventTrigger[]): Promise<FirstRefusal[]> {
  const variables = variablesByType(triggers);
  const missing = variableTypes.filter((type) => !variables.has(type));
  if (missing.length > 0) {
    const reason = `no listed trigger has a variable of type ${missing.join(", ")}`;
    session.results.skip("payload_validation_rejection", reason);
    session.results.skip("payload_acceptance", reason);
  }
  const acceptedWrong = new Set<VariableType>();
  const firstWrong = new Map<TriggerVariable, FirstRefusal>();
  const bodyOf = (variable: TriggerVariable, value: unknown): Record<string, unknown> => ({
    ...target(session),
    ...triggerFields(session, variable.trigger),
    externalEventPayload: { [variable.code]: value },
  });
  /** Fires a wrong value (`what` it is); returns the checks that failed on it. */
  const fireWrong = async (variable: TriggerVariable, value: unknown, what: string): Promise<CheckName[]> => {
    const answer = await fire(
      session,
      bodyOf(variable, value),
      [["payload_validation_rejection", payloadRejection(`${variable.code} (${variable.type}) = ${what}`)]],
      variableNearMissesFamily,
    );
    if (answer && answer.exchange.status >= 200 && answer.exchange.status < 300) acceptedWrong.add(variable.type);
    if (answer && !firstWrong.has(variable)) firstWrong.set(variable, { variable, value, what, status: answer.exchange.status });
    return answer?.failed ?? [];
  };
  for (const variable of allVariables(triggers)) {
    for (const nearMiss of nearMissesOf(variable.type, session.settings.seed)) {
      if (acceptedWrong.has(variable.type) || !session.canSend) break;
      // A near miss is failed only where the seed's words rule it out (and the client's validateEventPayload refuses it).
      if (!ruledOut(variable, nearMiss.value)) continue;
      await fireWrong(variable, nearMiss.value, `${JSON.stringify(nearMiss.value)} (${nearMiss.what})`);
    }
  }
  await checkLaterPositions(session, triggers, acceptedWrong);
  for (const variable of variables.values()) {
    await session.explore(
      wrongValue(variable),
      async (value) => {
        if (acceptedWrong.has(variable.type)) return [];
        return (await fireWrong(variable, value, JSON.stringify(value))).filter((name) => name === "payload_validation_rejection");
      },
      valuesPerType,
    );
    await session.explore(
      rightValue(variable),
      async (value) => {
        const answer = await fire(
          session,
          bodyOf(variable, value),
          [["payload_acceptance", payloadAcceptance(`${variable.code} (${variable.type}) = ${JSON.stringify(value)}`)]],
          variableRightValuesFamily,
        );
        return (answer?.failed ?? []).filter((name) => name === "payload_acceptance");
      },
      valuesPerType,
      familiarValues(variable),
    );
  }
  return [...firstWrong.values()];
}

/**
 * The open forms of each variable type (`openFormsOf`: a `DateTime` without an offset, a date alone, ISO 8601's
 * basic format, a space for `T`, ...), one value of each drawn by the run's seed and fired once into the given
 * conversation on the first variable of its type: the seed allows the ISO 8601 ones and the toolkit's date rule does
 * not, so no answer is failed; the statuses, by form, are the `date_time_variable_forms` finding. Real events when the
 * server takes them.
 */
export async function probeOpenForms(
  session: Session,
  triggers: readonly ExternalEventTrigger[],
): Promise<Record<string, { value: unknown; status: number }> | undefined> {
  const answers: Record<string, { value: unknown; status: number }> = {};
  for (const variable of variablesByType(triggers).values()) {
    for (const form of openFormsOf(variable.type, session.settings.seed)) {
      if (!session.canSend) break;
      const answer = await fire(session, {
        ...target(session),
        ...triggerFields(session, variable.trigger),
        externalEventPayload: { [variable.code]: form.value },
      });
      if (answer) answers[form.what] = { value: form.value, status: answer.exchange.status };
    }
  }
  return Object.keys(answers).length > 0 ? answers : undefined;
}

/**
 * `variable-later-position`: for every trigger with several variables, payloads with a right value for
 * every variable before one and a near miss only in that later one: the 500 with details. A server that
 * validates only the first variable (or stops at the first valid one) fires these. Types whose wrong
 * value was already accepted (`acceptedWrong`) are not sent again.
 */
async function checkLaterPositions(session: Session, triggers: readonly ExternalEventTrigger[], acceptedWrong: Set<VariableType>): Promise<void> {
  const several = triggers.map((trigger) => allVariables([trigger])).filter((variables) => variables.length > 1);
  if (several.length === 0)
    return session.results.skip("payload_validation_rejection", "no listed trigger has several variables (a wrong value after valid ones)");
  for (const variables of several) {
    const rights = variables.map((variable, index) => fc.sample(rightValue(variable), { seed: session.settings.seed + index, numRuns: 1 })[0]);
    for (let position = 1; position < variables.length && session.canSend; position++) {
      const variable = variables[position]!;
      // A type whose wrong value already fired is not sent again: each wrong value accepted is a real event.
      if (acceptedWrong.has(variable.type)) continue;
      const nearMiss = nearMissesOf(variable.type, session.settings.seed).find((miss) => ruledOut(variable, miss.value));
      if (!nearMiss) continue;
      const payload = Object.fromEntries([
        ...variables.slice(0, position).map((before, index) => [before.code, rights[index]]),
        [variable.code, nearMiss.value],
      ]);
      const answer = await fire(
        session,
        { ...target(session), ...triggerFields(session, variable.trigger), externalEventPayload: payload },
        [
          [
            "payload_validation_rejection",
            payloadRejection(
              `${variable.code} (${variable.type}) = ${JSON.stringify(nearMiss.value)} (${nearMiss.what}), after ${position} right value${position > 1 ? "s" : ""}`,
            ),
          ],
        ],
        variableLaterPositionFamily,
      );
      if (answer && answer.exchange.status >= 200 && answer.exchange.status < 300) acceptedWrong.add(variable.type);
    }
  }
}

/** `externalEventPayload` values that are not a JSON object. */
const payloadShapes: ReadonlyArray<readonly [unknown, string]> = [
  [[], "an array"],
  ["orderNumber=1", "a string"],
  [1, "a number"],
];

/**
 * `payload_optional`: a fire without `externalEventPayload`, and with an empty one, is a 200 with an
 * empty body (the payload is not required). `payload_shape_rejection`: a payload that is not an object
 * is refused, with a 4xx or the seed's 500 with details, never accepted. Returns the status of a fire
 * naming a variable the trigger does not list (an open point), for discovery.
 */
export async function checkPayloadForms(session: Session, triggers: readonly ExternalEventTrigger[]): Promise<number | undefined> {
  const trigger = triggers[0];
  if (!trigger) {
    for (const name of ["payload_optional", "payload_shape_rejection"] as const) session.results.skip(name, "needs a trigger of --agent-stage-id to fire");
    return undefined;
  }
  const base = { ...target(session), ...triggerFields(session, trigger) };
  for (const [body, what] of [
    [base, "without externalEventPayload"],
    [{ ...base, externalEventPayload: {} }, "with an empty externalEventPayload"],
  ] as const) {
    await fire(session, body, [["payload_optional", payloadAcceptance(`a fire ${what} (the payload is optional)`)]]);
  }
  for (const [payload, what] of payloadShapes)
    await fire(session, { ...base, externalEventPayload: payload }, [["payload_shape_rejection", payloadShapeRejection(payload, what)]]);
  const unlisted = await fire(session, { ...base, externalEventPayload: { conformanceUnlisted: "1" } });
  return unlisted?.exchange.status;
}

/** How the server answers a request that names the given conversation by one identifier and an unknown one by the other. */
export async function probeIdentifierPrecedence(
  session: Session,
  triggers: readonly ExternalEventTrigger[],
): Promise<{ byConversationId?: number; byExternalConversationId?: number }> {
  if (!triggers[0]) return {};
  const fromList = triggerFields(session, triggers[0]);
  const { conversationId, externalConversationId } = session.settings;
  const result: { byConversationId?: number; byExternalConversationId?: number } = {};
  if (conversationId) {
    const answer = await fire(session, { conversationId, externalConversationId: `${unknownIdentifier(session, "session")}|livechat`, ...fromList });
    if (answer) result.byConversationId = answer.exchange.status;
  }
  if (externalConversationId) {
    const answer = await fire(session, { conversationId: unknownIdentifier(session, "conversation"), externalConversationId, ...fromList });
    if (answer) result.byExternalConversationId = answer.exchange.status;
  }
  return result;
}

/**
 * Fire requests that break the request schema in one place (an identifier missing, a value of
 * another type, an empty identifier) are refused with a 4xx, when the description documents one for
 * the operation. Each is built from a request into the given conversation.
 */
export async function exploreInvalidFire(session: Session, triggers: readonly ExternalEventTrigger[]): Promise<void> {
  const operation = operationOf(session.description, operationId);
  const refusals = [...operation.responses.keys()].filter((key) => key.startsWith("4") && key !== "401" && key !== "404");
  if (refusals.length === 0 || !operation.requestBodyPointer) {
    return session.results.skip("negative_data_rejection", "fireExternalEvent documents no 4xx for a request it cannot read");
  }
  const requestPointer = operation.requestBodyPointer;
  const variants = (session.description.resolve(requestPointer)["oneOf"] as { $ref: string }[] | undefined) ?? [];
  const resolved = session.description.resolve(variants[0]?.$ref ?? requestPointer);
  // The payload's shape is payload_shape_rejection's (the seed's 500 for values that fail validation may answer it).
  const { externalEventPayload: _payload, ...properties } = (resolved["properties"] as Record<string, unknown> | undefined) ?? {};
  const variant = { ...resolved, properties };
  const valid = { ...target(session), ...(triggers[0] ? triggerFields(session, triggers[0]) : { externalEventId: unknownIdentifier(session, "trigger") }) };
  const resolveSchema = (schema: Record<string, unknown>): Record<string, unknown> =>
    typeof schema["$ref"] === "string" ? session.description.resolve(schema["$ref"]) : schema;
  const isInvalid = (body: unknown): boolean => session.description.problemsOf(requestPointer, body).length > 0;
  await session.explore(
    invalidBody(variant, resolveSchema, valid, isInvalid),
    async ({ body, change }) => {
      const answer = await session.exchange(caseFor(operation, { body }), [["negative_data_rejection", rejectionOf(`a fire body (${change})`, body)]]);
      return answer?.failed ?? [];
    },
    Math.min(session.settings.examples, 20),
    // Each required field dropped, every run: a few cases, tried before the generated ones.
    withoutRequired(variant, valid).filter(({ body }) => isInvalid(body)),
  );
}
