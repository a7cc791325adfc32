import { variableGenerators } from "../variable-values.ts";
import type { CatalogEntry } from "./entry.ts";
import type { ProbeFamily } from "./family.ts";
import type { ExchangeCheck } from "./types.ts";

/** `unknown_bot_not_found`, `unknown_trigger_not_found`, `unknown_conversation_not_found`: a request naming an unknown resource (`what`) is 404. */
export const notFound =
  (what: string): ExchangeCheck =>
  (exchange) =>
    exchange.status === 404 ? undefined : `expected 404 for ${what}; got ${exchange.status}`;

/** `payload_validation_rejection`: a fire with a value that fails validation (`what`) is the seed's 500, with details in the body. */
export const payloadRejection =
  (what: string): ExchangeCheck =>
  (exchange) => {
    if (exchange.status !== 500) return `expected 500 for ${what}; got ${exchange.status}`;
    return exchange.text.trim() === "" ? `expected the 500 for ${what} to carry details; got an empty body` : undefined;
  };

/** `payload_acceptance`, `payload_optional`: a fire the service must take (`what`) is a 200 with an empty body. */
export const payloadAcceptance =
  (what: string): ExchangeCheck =>
  (exchange) =>
    exchange.status !== 200
      ? `expected 200 for ${what}; got ${exchange.status}`
      : exchange.text !== ""
        ? `expected an empty body with the 200; got ${exchange.text.length} bytes`
        : undefined;

/** `payload_shape_rejection`: a payload that is no JSON object (`payload`, `what` it is) is refused: a 4xx, or the seed's 500 with details. */
export const payloadShapeRejection =
  (payload: unknown, what: string): ExchangeCheck =>
  (exchange, context) =>
    exchange.status >= 400 && exchange.status < 500
      ? undefined
      : payloadRejection(`externalEventPayload = ${JSON.stringify(payload)} (${what}; a 4xx also holds)`)(exchange, context);

/** The `bot-id-near-misses` probe family, judged on its own tagged probes. */
export const botIdNearMissesFamily = {
  name: "bot-id-near-misses",
  probes:
    "The trigger list of the known bot's id cut by its last character, with a character more, with a reserved character appended (`;`, `,`, `*`, an encoded `/`): 404.",
  rules: ["triggers-path-parameter", "errors-triggers-404"],
  tagged: true,
} as const satisfies ProbeFamily;

/** The `trigger-id-near-misses` probe family, judged on its own tagged probes. */
export const triggerIdNearMissesFamily = {
  name: "trigger-id-near-misses",
  probes: "A fire naming an unknown externalEventId, and the known trigger's id cut by its last character or with a character more: 404.",
  rules: ["fire-external-event-id", "fire-rule-not-found", "errors-fire-404"],
  tagged: true,
} as const satisfies ProbeFamily;

/** The `conversation-id-near-misses` probe family, judged on its own tagged probes. */
export const conversationIdNearMissesFamily = {
  name: "conversation-id-near-misses",
  probes:
    "A fire naming an unknown conversationId or externalConversationId, the known conversationId cut by its last character or with a character more, and a known platform session with another suffix than `|livechat`: 404.",
  rules: ["fire-conversation-id", "fire-external-conversation-id", "fire-rule-not-found", "errors-fire-404"],
  tagged: true,
} as const satisfies ProbeFamily;

/** The rules of the seed's variable-type table, one per type: those its generators name, which the variable families test. */
const variableTypeRules = variableGenerators.map((generator) => generator.rule);

/** The `variable-near-misses` probe family, judged on its own tagged probes. */
export const variableNearMissesFamily = {
  name: "variable-near-misses",
  probes:
    "Each near miss of each variable type (src/variable-values.ts of the kit) on every variable of every listed trigger, and generated wrong values: the 500 with details.",
  rules: [...variableTypeRules, "fire-rule-validation", "errors-fire-500"],
  generators: variableGenerators,
  tagged: true,
} as const satisfies ProbeFamily;

/** The `external-identifier` probe family, judged on its own tagged probes (`phases/external-identifier.ts`). */
export const externalIdentifierFamily = {
  name: "external-identifier",
  probes:
    "A fire naming a listed platform conversation by `<SESSION_ID>|livechat` (its session as the search lists it) with a variable value the server refused for its conversationId: the same 500, never the 404 of no conversation.",
  rules: ["fire-external-conversation-id", "fire-rule-validation", "errors-fire-500"],
  tagged: true,
} as const satisfies ProbeFamily;

/** The `variable-later-position` probe family, judged on its own tagged probes. */
export const variableLaterPositionFamily = {
  name: "variable-later-position",
  probes:
    "For every trigger with several variables, a payload with right values for every variable but one, the wrong value only in a later variable after valid ones: the 500 with details.",
  rules: [...variableTypeRules, "fire-rule-validation", "errors-fire-500"],
  generators: variableGenerators,
  tagged: true,
} as const satisfies ProbeFamily;

/** The `variable-right-values` probe family, judged on its own tagged probes. */
export const variableRightValuesFamily = {
  name: "variable-right-values",
  probes: "Generated values of each type's format: 200 with an empty body.",
  rules: [...variableTypeRules, "fire-payload"],
  generators: variableGenerators,
  tagged: true,
} as const satisfies ProbeFamily;

/** The `payload-optional` probe family. */
export const payloadOptionalFamily = {
  name: "payload-optional",
  probes: "A fire without externalEventPayload, and with an empty one: 200 with an empty body.",
  rules: ["fire-payload"],
} as const satisfies ProbeFamily;

/** The `payload-shapes` probe family. */
export const payloadShapesFamily = {
  name: "payload-shapes",
  probes: "An externalEventPayload that is an array, a string or a number: refused.",
  rules: ["fire-payload"],
} as const satisfies ProbeFamily;

/** The `fire-success` probe family. */
export const fireSuccessFamily = {
  name: "fire-success",
  probes: "Every fire the service must take: 200 with an empty body.",
  rules: ["fire-response", "errors-fire-200"],
} as const satisfies ProbeFamily;

/** The catalog's entry of `unknown_bot_not_found`. */
export const unknownBotNotFoundEntry = {
  name: "unknown_bot_not_found",
  description: "An unknown agentStageId is 404 on the trigger list.",
  rule: "Seed, Errors: List triggers 404, no bot with the given agentStageId.",
  phases: ["listExternalEventTriggers: unknown bot", "identifiers: near misses and encodings of the bot's id"],
  families: [botIdNearMissesFamily],
} as const satisfies CatalogEntry;

/** The catalog's entry of `unknown_trigger_not_found`. */
export const unknownTriggerNotFoundEntry = {
  name: "unknown_trigger_not_found",
  description: "Firing an unknown externalEventId is 404.",
  rule: "Seed, Fire rule: an unknown trigger gives 404.",
  phases: ["fireExternalEvent: unknown trigger and conversation"],
  families: [triggerIdNearMissesFamily],
} as const satisfies CatalogEntry;

/** The catalog's entry of `unknown_conversation_not_found`. */
export const unknownConversationNotFoundEntry = {
  name: "unknown_conversation_not_found",
  description: "Firing into an unknown conversation is 404, by either identifier.",
  rule: "Seed, Fire rule: no conversation matching conversationId or externalConversationId gives 404.",
  phases: ["fireExternalEvent: unknown trigger and conversation"],
  families: [conversationIdNearMissesFamily],
} as const satisfies CatalogEntry;

/** The catalog's entry of `payload_validation_rejection`. */
export const payloadValidationRejectionEntry = {
  name: "payload_validation_rejection",
  description: "A wrong value for a variable type is a 500 with details.",
  rule: "Seed, Fire rule: payload values that fail validation give 500 with details in the body; Variable types and value formats.",
  phases: ["fireExternalEvent: variable values"],
  families: [variableNearMissesFamily, variableLaterPositionFamily, externalIdentifierFamily],
} as const satisfies CatalogEntry;

/** The catalog's entry of `payload_acceptance`. */
export const payloadAcceptanceEntry = {
  name: "payload_acceptance",
  description: "A right value for a variable type is a 200 with an empty body.",
  rule: "Seed, Fire: Response 200, event sent; empty body.",
  phases: ["fireExternalEvent: variable values"],
  families: [variableRightValuesFamily, fireSuccessFamily],
} as const satisfies CatalogEntry;

/** The catalog's entry of `payload_optional`. */
export const payloadOptionalEntry = {
  name: "payload_optional",
  description: "A fire without externalEventPayload, or with an empty one, is a 200 with an empty body.",
  rule: "Seed, Fire: externalEventPayload is not required; Response 200, event sent; empty body.",
  phases: ["fireExternalEvent: payload present or not, and its shape"],
  families: [payloadOptionalFamily, fireSuccessFamily],
} as const satisfies CatalogEntry;

/** The catalog's entry of `payload_shape_rejection`. */
export const payloadShapeRejectionEntry = {
  name: "payload_shape_rejection",
  description: "An externalEventPayload that is not a JSON object (an array, a string, a number) is refused: a 4xx, or a 500 with details.",
  rule: "Seed, Fire: externalEventPayload is an object (map from variable identifier to value); values that fail validation give 500 with details.",
  phases: ["fireExternalEvent: payload present or not, and its shape"],
  families: [payloadShapesFamily],
} as const satisfies CatalogEntry;
