import { Hono } from "hono";
import { fixtureDefects } from "../data/fixture.ts";
import { generatedSource } from "../data/source.ts";
import { controlChecker, controlDescription, operationParameters } from "../description.ts";
import type { Fixture, SandboxState } from "../model.ts";
import { stateConflict } from "../options.ts";
import { maxBodyBytes, refusal, type SandboxContext } from "./context.ts";
import type { Fault } from "./faults.ts";
import { problemResponse } from "./problem.ts";
import { queryChecker, readJsonBody } from "./request.ts";

const checkReset = controlChecker({ $ref: "#/components/schemas/ResetRequest" });
const checkFault = controlChecker({ $ref: "#/components/schemas/Fault" });
const checkFiredEventsQuery = queryChecker(operationParameters(controlDescription, "listSandboxFiredEvents"), controlChecker);
const checkRequestsQuery = queryChecker(operationParameters(controlDescription, "listSandboxRequests"), controlChecker);

/** Events in one answer of `GET /_sandbox/fired-events` unless `limit` says otherwise: the sandbox's choice. */
export const firedEventsPageSize = 1000;

/** The control API under `/_sandbox/`, described by `openapi/sandbox-control.yaml`; authentication is checked before. */
export function controlRoutes(context: SandboxContext): Hono {
  const routes = new Hono();
  const { options } = context;

  routes.post("/reset", async (c) => {
    const body = await readJsonBody(c.req.raw, maxBodyBytes.operation, false);
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
    return Response.json(await context.replaceData(generatedSource(options, given)));
  });

  routes.put("/fixture", async (c) => {
    const body = await readJsonBody(c.req.raw, maxBodyBytes.fixture);
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
    return Response.json(await context.replaceData({ fixture: body.value as Fixture }));
  });

  routes.get("/conversations/:conversationId/export", (c) => {
    const conversationId = c.req.param("conversationId");
    const conversation = context.store().exportOf(conversationId);
    return conversation
      ? Response.json(conversation)
      : problemResponse(options.errorMediaType, 404, `No conversation with conversationId ${JSON.stringify(conversationId)}.`);
  });

  routes.get("/bots", () => Response.json(context.store().bots()));

  routes.get("/fired-events", async (c) => {
    const checked = checkFiredEventsQuery(new URL(c.req.url).searchParams, { rejectUnknown: true });
    if (!checked.ok) return refusal(context, checked);
    const {
      conversationId,
      externalEventId,
      limit = firedEventsPageSize,
      cursor = "0",
    } = checked.value as { conversationId?: string; externalEventId?: string; limit?: number; cursor?: string };
    const page = await context.fired.page({ conversationId, externalEventId }, Number(cursor), limit);
    if (page.next === undefined) return Response.json(page.events);
    // More events than the page holds: the next page is named by a cursor, in a header and as a `Link`.
    const next = new URL(c.req.url);
    next.searchParams.set("cursor", String(page.next));
    return Response.json(page.events, { headers: { "x-next-cursor": String(page.next), link: `<${next.pathname}${next.search}>; rel="next"` } });
  });

  routes.get("/requests", (c) => {
    const checked = checkRequestsQuery(new URL(c.req.url).searchParams, { rejectUnknown: true });
    if (!checked.ok) return refusal(context, checked);
    const { method, path, status, operationId } = checked.value as { method?: string; path?: string; status?: number; operationId?: string };
    return Response.json(context.requests.list({ method, path, status, operationId }), { headers: { "x-dropped-requests": String(context.requests.dropped) } });
  });

  routes.delete("/fired-events", async () => {
    await context.fired.clear();
    return new Response(null, { status: 204 });
  });

  routes.post("/faults", async (c) => {
    const body = await readJsonBody(c.req.raw, maxBodyBytes.operation);
    if (!body.ok) return refusal(context, body);
    const defects = checkFault(body.value);
    if (defects.length > 0) return refusal(context, { ok: false, status: 400, detail: "The fault is invalid.", defects });
    return Response.json(await context.faults.add(body.value as Fault), { status: 201 });
  });

  routes.delete("/faults", async () => {
    await context.faults.clear();
    return new Response(null, { status: 204 });
  });

  return routes;
}
