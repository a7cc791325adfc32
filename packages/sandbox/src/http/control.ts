import type { Fault } from "../data/faults.ts";
import { StoreUnavailableError } from "../data/fired-events.ts";
import { fixtureDefects } from "../data/fixture.ts";
import { generatedSource } from "../data/source.ts";
import { controlChecker, controlDescription, operationParameters } from "../description.ts";
import type { Fixture, SandboxState } from "../model.ts";
import { emptyAnswer, jsonAnswer } from "../operations/answer.ts";
import { maxBodyBytes, refusal } from "../operations/context.ts";
import { problemAnswer, storeUnavailable } from "../operations/problem.ts";
import { queryChecker, queryOf, readJsonBody } from "../operations/request.ts";
import { stateConflict } from "../options.ts";
import { checkSwitches, type SandboxSwitches, switchesOf } from "../switches.ts";
import type { OperationHandler } from "./context.ts";

const checkReset = controlChecker({ $ref: "#/components/schemas/ResetRequest" });
const checkFault = controlChecker({ $ref: "#/components/schemas/Fault" });
const checkSwitchesBody = controlChecker({ $ref: "#/components/schemas/Switches" });
const checkFiredEventsQuery = queryChecker(operationParameters(controlDescription, "listSandboxFiredEvents"), controlChecker);
const checkRequestsQuery = queryChecker(operationParameters(controlDescription, "listSandboxRequests"), controlChecker);

/** Events in one answer of `GET /_sandbox/fired-events` unless `limit` says otherwise: the sandbox's choice. */
export const firedEventsPageSize = 1000;

/**
 * The handlers of the control API under `/_sandbox/`, by the operationId `openapi/sandbox-control.yaml` gives each:
 * one workspace's routes (the workspace its token picked, checked before), and health and readiness (no token).
 * The administrator's are in `workspaces.ts`; the path, method and security of each come from the description.
 */
export const controlHandlers: Readonly<Record<string, OperationHandler>> = {
  resetSandbox: async (context, c) => {
    const body = await readJsonBody(c.req.body, maxBodyBytes.operation, false);
    if (!body.ok) return refusal(context, body);
    const defects = checkReset(body.value ?? {});
    if (defects.length > 0) return refusal(context, { ok: false, status: 400, detail: "The reset request is invalid; nothing was changed.", defects });
    const given = (body.value ?? {}) as { seed?: string; conversations?: number; state?: SandboxState };
    const conflict = stateConflict(given);
    if (conflict)
      return refusal(context, {
        ok: false,
        status: 400,
        detail: "The reset request is invalid; nothing was changed.",
        defects: [{ path: "$.conversations", message: conflict }],
      });
    return jsonAnswer(await context.replaceData(generatedSource(context.options, given)));
  },

  loadSandboxFixture: async (context, c) => {
    const body = await readJsonBody(c.req.body, maxBodyBytes.fixture);
    if (!body.ok) return refusal(context, body);
    const defects = fixtureDefects(body.value);
    if (defects.length > 0) {
      return refusal(context, {
        ok: false,
        status: 400,
        detail: `The fixture has ${defects.length} defect${defects.length === 1 ? "" : "s"}; nothing was changed.`,
        defects,
      });
    }
    return jsonAnswer(await context.replaceData({ fixture: body.value as Fixture }));
  },

  exportSandboxConversation: (context, c) => {
    const conversationId = c.req.param("conversationId") ?? "";
    const conversation = context.index().exportOf(conversationId);
    return conversation
      ? jsonAnswer(conversation)
      : problemAnswer(context.options.errorMediaType, 404, `No conversation with conversationId ${JSON.stringify(conversationId)}.`);
  },

  listSandboxBots: (context) => jsonAnswer(context.index().bots()),

  listSandboxFiredEvents: async (context, c) => {
    const checked = checkFiredEventsQuery(queryOf(c.req.target), { rejectUnknown: true });
    if (!checked.ok) return refusal(context, checked);
    const {
      conversationId,
      externalEventId,
      limit = firedEventsPageSize,
      cursor = "0",
    } = checked.value as { conversationId?: string; externalEventId?: string; limit?: number; cursor?: string };
    const page = await context.fired.page({ conversationId, externalEventId }, Number(cursor), limit);
    if (page.next === undefined) return jsonAnswer(page.events);
    // More events than the page holds: the next page is named by a cursor, in a header and as a `Link`.
    const next = new URL(c.req.url);
    next.searchParams.set("cursor", String(page.next));
    return jsonAnswer(page.events, 200, { "x-next-cursor": String(page.next), link: `<${next.pathname}${next.search}>; rel="next"` });
  },

  listSandboxRequests: (context, c) => {
    const checked = checkRequestsQuery(queryOf(c.req.target), { rejectUnknown: true });
    if (!checked.ok) return refusal(context, checked);
    const { method, path, status, operationId } = checked.value as { method?: string; path?: string; status?: number; operationId?: string };
    return jsonAnswer(context.requests.list({ method, path, status, operationId }), 200, { "x-dropped-requests": String(context.requests.dropped) });
  },

  clearSandboxFiredEvents: async (context) => {
    await context.fired.clear();
    return emptyAnswer(204);
  },

  addSandboxFault: async (context, c) => {
    const body = await readJsonBody(c.req.body, maxBodyBytes.operation);
    if (!body.ok) return refusal(context, body);
    const defects = checkFault(body.value);
    if (defects.length > 0) return refusal(context, { ok: false, status: 400, detail: "The fault is invalid.", defects });
    return jsonAnswer(await context.faults.add(body.value as Fault), 201);
  },

  clearSandboxFaults: async (context) => {
    await context.faults.clear();
    return emptyAnswer(204);
  },

  getSandboxSwitches: (context) => jsonAnswer(switchesOf(context.options)),

  // The switches given change, the others are kept; the workspace is opened again with them (every replica's).
  setSandboxSwitches: async (context, c) => {
    const body = await readJsonBody(c.req.body, maxBodyBytes.operation);
    if (!body.ok) return refusal(context, body);
    const invalid = (defects: { path: string; message: string }[]) =>
      refusal(context, { ok: false, status: 400, detail: "The switches are invalid; nothing was changed.", defects });
    const defects = checkSwitchesBody(body.value);
    if (defects.length > 0) return invalid(defects);
    let switches: SandboxSwitches;
    try {
      switches = checkSwitches({ ...switchesOf(context.options), ...(body.value as Partial<SandboxSwitches>) });
    } catch (error) {
      return invalid([{ path: "$", message: (error as Error).message }]);
    }
    await context.changeSwitches(switches);
    return jsonAnswer(switches);
  },

  // For a load balancer: the process answers (health), and its store answers and it follows every change (readiness).
  getSandboxHealth: () => jsonAnswer({ status: "ok" }),
  // While the sandbox drains, readiness is 503 (its connections are closed once they answered): a load balancer moves on.
  getSandboxReadiness: async (context) => {
    if (context.workspaces.draining())
      return problemAnswer(context.options.errorMediaType, 503, "The sandbox is shutting down.", undefined, { "retry-after": "1" });
    return (await context.workspaces.ready())
      ? jsonAnswer({ status: "ready" })
      : storeUnavailable(context.options.errorMediaType, new StoreUnavailableError("The sandbox's store cannot be reached now.", 1));
  },
};
