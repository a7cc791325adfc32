import type { ExternalEventTrigger, VariableType } from "@bot-conversation/types";
import { variableTypes } from "@bot-conversation/types";
import { caseFor, type Exchange } from "../case.ts";
import { operationOf } from "../description.ts";
import { rejectionOf } from "../checks/data.ts";
import { invalidBody, rightValue, wrongValue, type TriggerVariable } from "../generate.ts";
import type { Session } from "../session.ts";
import { unknownIdentifier } from "./triggers.ts";

const operationId = "fireExternalEvent";

/** How many values per variable type are fired (each run fires a real event). */
const valuesPerType = 2;

/** The conversation the run fires into, by the identifier given on the command line. */
function target(session: Session): Record<string, string> {
  const { conversationId, externalConversationId } = session.settings;
  return conversationId ? { conversationId } : { externalConversationId: externalConversationId! };
}

/** Sends one fire request with the token. */
async function fire(session: Session, body: Record<string, unknown>): Promise<Exchange | undefined> {
  return (await session.exchange(caseFor(operationOf(session.description, operationId), { body })))?.exchange;
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

/** An unknown trigger is 404, and so is an unknown conversation, by `conversationId` and by `externalConversationId`. */
export async function checkFireNotFound(session: Session, triggers: readonly ExternalEventTrigger[]): Promise<void> {
  const unknownTrigger = unknownIdentifier(session, "trigger");
  const knownTrigger = triggers[0]?.externalEventId ?? unknownTrigger;
  const expect404 = (name: "unknown_trigger_not_found" | "unknown_conversation_not_found", what: string, exchange: Exchange | undefined): void => {
    if (exchange) session.record(name, exchange, exchange.status === 404 ? undefined : `expected 404 for ${what}; got ${exchange.status}`);
  };
  expect404("unknown_trigger_not_found", "an unknown externalEventId", await fire(session, { ...target(session), externalEventId: unknownTrigger }));
  expect404(
    "unknown_conversation_not_found",
    "an unknown conversationId",
    await fire(session, { conversationId: unknownIdentifier(session, "conversation"), externalEventId: knownTrigger }),
  );
  expect404(
    "unknown_conversation_not_found",
    "an unknown externalConversationId",
    await fire(session, { externalConversationId: `${unknownIdentifier(session, "session")}|livechat`, externalEventId: knownTrigger }),
  );
}

/**
 * For each variable type of the listed triggers: a value in the wrong format is a 500 with details in
 * the body, and a value in the right format is a 200 with an empty body. Values are generated and
 * shrunk; each request fires into the given conversation.
 */
export async function checkPayloads(session: Session, triggers: readonly ExternalEventTrigger[]): Promise<void> {
  const variables = variablesByType(triggers);
  const missing = variableTypes.filter((type) => !variables.has(type));
  if (missing.length > 0) {
    const reason = `no listed trigger has a variable of type ${missing.join(", ")}`;
    session.results.skip("payload_validation_rejection", reason);
    session.results.skip("payload_acceptance", reason);
  }
  for (const variable of variables.values()) {
    const body = (value: unknown): Record<string, unknown> => ({
      ...target(session),
      externalEventId: variable.trigger.externalEventId,
      externalEventPayload: { [variable.code]: value },
    });
    // Each accepted wrong value fired a real event: after the first, no more wrong values of this type are sent (nor shrunk).
    let acceptedWrong = false;
    await session.explore(
      wrongValue(variable),
      async (value) => {
        if (acceptedWrong) return [];
        const exchange = await fire(session, body(value));
        if (!exchange) return [];
        if (exchange.status >= 200 && exchange.status < 300) acceptedWrong = true;
        const problem =
          exchange.status !== 500
            ? `expected 500 for ${variable.code} (${variable.type}) = ${JSON.stringify(value)}; got ${exchange.status}`
            : exchange.text.trim() === ""
              ? `expected the 500 for ${variable.code} (${variable.type}) to carry details; got an empty body`
              : undefined;
        session.record("payload_validation_rejection", exchange, problem);
        return problem === undefined ? [] : ["payload_validation_rejection"];
      },
      valuesPerType,
    );
    await session.explore(
      rightValue(variable),
      async (value) => {
        const exchange = await fire(session, body(value));
        if (!exchange) return [];
        const problem =
          exchange.status !== 200
            ? `expected 200 for ${variable.code} (${variable.type}) = ${JSON.stringify(value)}; got ${exchange.status}`
            : exchange.text !== ""
              ? `expected an empty body with the 200; got ${exchange.text.length} bytes`
              : undefined;
        session.record("payload_acceptance", exchange, problem);
        return problem === undefined ? [] : ["payload_acceptance"];
      },
      valuesPerType,
    );
  }
}

/** How the server answers a request that names the given conversation by one identifier and an unknown one by the other. */
export async function probeIdentifierPrecedence(session: Session, triggers: readonly ExternalEventTrigger[]): Promise<{ byConversationId?: number; byExternalConversationId?: number }> {
  const externalEventId = triggers[0]?.externalEventId;
  if (!externalEventId) return {};
  const { conversationId, externalConversationId } = session.settings;
  const result: { byConversationId?: number; byExternalConversationId?: number } = {};
  if (conversationId) {
    const exchange = await fire(session, { conversationId, externalConversationId: `${unknownIdentifier(session, "session")}|livechat`, externalEventId });
    if (exchange) result.byConversationId = exchange.status;
  }
  if (externalConversationId) {
    const exchange = await fire(session, { conversationId: unknownIdentifier(session, "conversation"), externalConversationId, externalEventId });
    if (exchange) result.byExternalConversationId = exchange.status;
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
  const variant = session.description.resolve(variants[0]?.$ref ?? requestPointer);
  const valid = { ...target(session), externalEventId: triggers[0]?.externalEventId ?? unknownIdentifier(session, "trigger") };
  const resolveSchema = (schema: Record<string, unknown>): Record<string, unknown> =>
    typeof schema["$ref"] === "string" ? session.description.resolve(schema["$ref"]) : schema;
  const isInvalid = (body: unknown): boolean => session.description.problemsOf(requestPointer, body).length > 0;
  await session.explore(invalidBody(variant, resolveSchema, valid, isInvalid), async ({ body, change }) => {
    const answer = await session.exchange(caseFor(operation, { body }), [["negative_data_rejection", rejectionOf(`a fire body (${change})`, body)]]);
    return answer?.failed ?? [];
  }, Math.min(session.settings.examples, 20));
}
