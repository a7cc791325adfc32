import { caseFor } from "../case.ts";
import type { Session } from "../session.ts";
import { unknownIdentifier } from "./triggers.ts";

/** Methods sent where the description does not list them; a read-only run sends only those that change nothing on a correct server. */
const unsupportedMethods = ["PUT", "PATCH", "DELETE"] as const;

/**
 * `unsupported_method`: each path with a method the description does not list on it is 405 with
 * `Allow`. A read-only run sends GET to a POST-only path (safe by HTTP's own rules) and DELETE to the
 * trigger list of an unknown bot; with `--allow-fire`, also PUT, PATCH and DELETE everywhere else.
 */
export async function checkUnsupportedMethods(session: Session): Promise<void> {
  const byPath = new Map<string, string[]>();
  for (const operation of session.description.operations.values()) byPath.set(operation.path, [...(byPath.get(operation.path) ?? []), operation.method]);
  for (const [template, documented] of byPath) {
    const path = template.replace(/\{[^}]+\}/g, () => encodeURIComponent(unknownIdentifier(session, "bot")));
    const hasParameter = path !== template;
    const methods = documented.includes("GET") ? [] : ["GET"];
    for (const method of unsupportedMethods) {
      if (session.settings.allowFire || (hasParameter && method === "DELETE")) methods.push(method);
    }
    for (const method of methods) {
      if (!session.canSend) return;
      await session.exchange({ operationId: `${method} ${template}`, method, path, query: {}, authentication: "token", documentedMethods: documented });
    }
  }
  if (!session.settings.allowFire)
    session.results.skip("unsupported_method", "PUT, PATCH and DELETE on the search and fire paths not sent: they could change data (--allow-fire)");
}

/** `accept_negotiation`: a search and a trigger list asking for `text/html` only, and for XML before JSON. */
export async function checkAcceptNegotiation(session: Session): Promise<void> {
  const bot = session.settings.agentStageId;
  const search = session.description.operations.get("searchConversations");
  const triggers = session.description.operations.get("listExternalEventTriggers");
  for (const accept of ["text/html", "application/xml;q=1, application/json;q=0.5"]) {
    if (search && session.canSend) await session.exchange({ ...caseFor(search, { query: bot ? { agentStageId: bot } : {} }), accept });
    if (triggers && session.canSend)
      await session.exchange({ ...caseFor(triggers, { path: { agentStageId: bot ?? unknownIdentifier(session, "bot") } }), accept });
  }
}
