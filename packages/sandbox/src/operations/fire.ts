import { validateEventPayload } from "@bot-conversation/client";
import type { FireExternalEventRequest } from "@bot-conversation/types";
import { nowInUtc } from "../data/dates.ts";
import { StoreUnavailableError } from "../data/fired-events.ts";
import { WorkspaceGoneError } from "../data/store.ts";
import { appendJsonPath, type Defect, requestBodySchema, type SchemaObject, serviceChecker, serviceDescription } from "../description.ts";
import type { Checked } from "../json.ts";
import { type Answer, emptyAnswer } from "./answer.ts";
import { maxBodyBytes, type OperationContext, refusal } from "./context.ts";
import { problemAnswer, storeUnavailable } from "./problem.ts";
import { type RequestBody, readJsonBody } from "./request.ts";

/** A schema of the service's description, its `$ref` (`#/components/schemas/…`) followed when it is one. */
const resolved = (schema: SchemaObject): SchemaObject & { properties?: Record<string, SchemaObject>; oneOf?: SchemaObject[] } => {
  const ref = schema["$ref"];
  return typeof ref === "string" ? serviceDescription.components.schemas[ref.slice(ref.lastIndexOf("/") + 1)]! : schema;
};

/**
 * A fire request's schema with the variable values left to the payload check (the seed's 500 naming each
 * variable), so a `null` or an array value is judged like a wrong string: its payload's values may be anything
 * here, its names and every other field are the description's. Made once, from the description, so a request is
 * checked as it is, with no copy of it.
 */
const shapeOf = (schema: SchemaObject): SchemaObject => {
  const { properties } = resolved(schema);
  const payload = properties?.["externalEventPayload"];
  if (payload === undefined) throw new Error("a fire request's schema has no externalEventPayload");
  return { ...resolved(schema), properties: { ...properties, externalEventPayload: { ...resolved(payload), additionalProperties: true } } };
};
const requestSchema = resolved(requestBodySchema(serviceDescription, "fireExternalEvent"));
// The description's two variants, checked one at a time: the variant is the one the request chose by the
// identifier it sent, so its defects are that variant's alone (not the other's "required" and "must not").
const [byConversationId, byExternalConversationId] = (requestSchema.oneOf ?? []).map(shapeOf) as [SchemaObject, SchemaObject];
const checkRequest = serviceChecker({ ...requestSchema, oneOf: [byConversationId, byExternalConversationId] });
const checkByConversationId = serviceChecker(byConversationId);
const checkByExternalConversationId = serviceChecker(byExternalConversationId);

/** The defects of a fire request's shape (its variable values are the payload check's, see `shapeOf`). */
function requestDefects(body: unknown): Defect[] {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return checkRequest(body);
  if ("conversationId" in body) return checkByConversationId(body);
  if ("externalConversationId" in body) return checkByExternalConversationId(body);
  return checkRequest(body);
}
/** The suffix of an external conversation identifier created in a platform line: `<SESSION_ID>|livechat`. */
const livechatSuffix = "|livechat";

/**
 * `POST /api/v1/runtime/simple/external/events`: fires an external event into a conversation.
 * 404 when the conversation (by the identifier that wins, see `identifierWins`) or the trigger (of
 * the conversation's bot) is unknown; 500 naming every variable whose value fails its type's format;
 * otherwise 200 with an empty body, and the event is recorded (committed to the `--data` file) before the
 * answer; 503 when the file could not keep it (the sandbox's own status: the event was not fired).
 */
export function fireExternalEvent(context: OperationContext, requestBody: RequestBody): Promise<Answer> {
  return readJsonBody(requestBody, maxBodyBytes.operation).then((body) => fired(context, body));
}

/** A fire request whose body was read (see `fireExternalEvent`): its answer, once the event is kept when it is fired. */
function fired(context: OperationContext, body: Checked<unknown>): Answer | Promise<Answer> {
  const { options } = context;
  if (!body.ok) return refusal(context, body);
  const defects = requestDefects(body.value);
  if (defects.length > 0) return refusal(context, { ok: false, status: 400, detail: "The request body does not match FireExternalEventRequest.", defects });
  const fire = body.value as FireExternalEventRequest & { conversationId?: string; externalConversationId?: string };
  // The data in place once the body is complete (a reset may have swapped it in while the body arrived): from
  // here to the record nothing waits, so the event is checked and kept against the same data.
  const data = context.index();

  const byExternal = fire.externalConversationId !== undefined && (fire.conversationId === undefined || options.identifierWins === "externalConversationId");
  const conversation = byExternal
    ? fire.externalConversationId!.endsWith(livechatSuffix)
      ? data.findConversation("sessionId", fire.externalConversationId!.slice(0, -livechatSuffix.length))
      : undefined
    : data.findConversation("id", fire.conversationId!);
  if (!conversation) {
    const [name, value] = byExternal ? ["externalConversationId", fire.externalConversationId] : ["conversationId", fire.conversationId];
    return problemAnswer(options.errorMediaType, 404, `No conversation with ${name} ${JSON.stringify(value)}.`);
  }
  const trigger = data.trigger(conversation.agentStageId, fire.externalEventId);
  if (!trigger) {
    return problemAnswer(
      options.errorMediaType,
      404,
      `No trigger with externalEventId ${JSON.stringify(fire.externalEventId)} for the bot of conversation ${JSON.stringify(conversation.id)}.`,
    );
  }
  const problems = validateEventPayload(trigger, fire.externalEventPayload);
  if (problems.length > 0) {
    return problemAnswer(
      options.errorMediaType,
      500,
      // Each variable named with what its type expects, as the client's check says it.
      `${problems.length} variable value${problems.length === 1 ? "" : "s"} failed validation: ${problems.map((problem) => problem.message).join("; ")}.`,
      problems.map((problem) => ({ path: appendJsonPath("$.externalEventPayload", problem.variableCode), message: problem.message })),
    );
  }
  // Recorded against the data in place now (a database store refuses it when another replica replaced the
  // data meanwhile: a 503); the answer follows the commit.
  const kept = context.fired.record({
    receivedAt: nowInUtc(),
    sent: { conversationId: fire.conversationId ?? null, externalConversationId: fire.externalConversationId ?? null },
    externalEventId: fire.externalEventId,
    externalEventPayload: fire.externalEventPayload ?? null,
    conversationId: conversation.id,
  });
  // The answer waits for the store to keep it (a commit, with --data or a database); an event that could not be
  // kept was not fired: a 503, which the client may retry, never the 500 the description gives to a payload that
  // failed validation.
  return kept.then(
    () => firedAnswer,
    (error: unknown) => {
      // Its workspace removed while the request was under way: nothing was kept, answered as the app answers that.
      if (error instanceof WorkspaceGoneError) throw error;
      // A database that cannot be reached, or data replaced meanwhile: the documented 503 with Retry-After.
      if (error instanceof StoreUnavailableError) return storeUnavailable(options.errorMediaType, error);
      return problemAnswer(
        options.errorMediaType,
        503,
        `The sandbox could not keep the event, so it was not fired (${(error as Error).message}); send it again once the sandbox can write.`,
      );
    },
  );
}

/** The answer to a fired event: 200, empty (one answer for every fire: an answer is never changed). */
const firedAnswer = emptyAnswer(200);
