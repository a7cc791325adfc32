/**
 * The administrator's routes: `POST /_sandbox/workspaces` (answers the workspace's token, once),
 * `GET /_sandbox/workspaces`, `DELETE /_sandbox/workspaces/{name}`, in every mode (in memory, with `--data`,
 * on PostgreSQL); the app checks the administrator token (`--admin-token`) before them.
 */
import { fixtureDefects } from "../data/fixture.ts";
import { dataOf, generatedSource } from "../data/source.ts";
import { defaultWorkspace } from "../data/store.ts";
import { unholdableText } from "../data/text-limits.ts";
import { controlChecker, controlDescription, operationParameters } from "../description.ts";
import type { DataSource, Fixture, SandboxState } from "../model.ts";
import { emptyAnswer, jsonAnswer } from "../operations/answer.ts";
import { maxBodyBytes, refusal } from "../operations/context.ts";
import { problemAnswer } from "../operations/problem.ts";
import { queryChecker, queryOf, readJsonBody } from "../operations/request.ts";
import { stateConflict } from "../options.ts";
import { checkSwitches, type SandboxSwitches, switchesOf } from "../switches.ts";
import type { OperationHandler, SandboxContext } from "./context.ts";

const checkWorkspaceRequest = controlChecker({ $ref: "#/components/schemas/WorkspaceRequest" });
const checkWorkspacesQuery = queryChecker(operationParameters(controlDescription, "listSandboxWorkspaces"), controlChecker);

/** Workspaces in one answer of `GET /_sandbox/workspaces` unless `limit` says otherwise: the sandbox's choice, as for fired events. */
export const workspacesPageSize = 1000;

/** A workspace request refused, with its defects. */
const invalid = (context: SandboxContext, defects: { path: string; message: string }[]) =>
  refusal(context, { ok: false, status: 400, detail: "The workspace request is invalid; nothing was created.", defects });

/** The handlers of the administrator's routes under `/_sandbox/`, over the sandbox's workspaces, by operationId (the paths and the security are the description's). */
export const workspaceHandlers: Readonly<Record<string, OperationHandler>> = {
  createSandboxWorkspace: async (context, c) => {
    const { options, workspaces } = context;
    const body = await readJsonBody(c.req.body, maxBodyBytes.fixture);
    if (!body.ok) return refusal(context, body);
    const defects = checkWorkspaceRequest(body.value);
    if (defects.length > 0) return invalid(context, defects);
    const given = body.value as {
      name: string;
      seed?: string;
      conversations?: number;
      state?: SandboxState;
      fixture?: unknown;
      switches?: Partial<SandboxSwitches>;
    };
    const conflict = stateConflict(given);
    if (conflict) return invalid(context, [{ path: "$.conversations", message: conflict }]);
    if (given.fixture !== undefined) {
      const other = (["seed", "conversations", "state"] as const).find((key) => given[key] !== undefined);
      if (other) return invalid(context, [{ path: `$.${other}`, message: "must not be sent with a fixture, which is its own data" }]);
      const fixtureProblems = fixtureDefects(given.fixture);
      if (fixtureProblems.length > 0)
        return invalid(
          context,
          fixtureProblems.map((defect) => ({ ...defect, path: defect.path.replace(/^\$/, "$.fixture") })),
        );
    }
    let switches: SandboxSwitches;
    try {
      switches = checkSwitches({ ...switchesOf(options), ...given.switches });
    } catch (error) {
      return invalid(context, [{ path: "$.switches", message: (error as Error).message }]);
    }
    const source: DataSource = given.fixture === undefined ? generatedSource(options, given) : { fixture: given.fixture as Fixture };
    const token = await workspaces.create({ name: given.name, source, switches });
    if (token === undefined)
      return problemAnswer(options.errorMediaType, 409, `A workspace named ${JSON.stringify(given.name)} exists already; nothing was created.`);
    const data = dataOf(source);
    return jsonAnswer({ name: given.name, token, bots: data.bots.length, conversations: data.count }, 201, { location: `/_sandbox/workspaces/${given.name}` });
  },

  listSandboxWorkspaces: async (context, c) => {
    const checked = checkWorkspacesQuery(queryOf(c.req.target), { rejectUnknown: true });
    if (!checked.ok) return refusal(context, checked);
    const { limit = workspacesPageSize, cursor } = checked.value as { limit?: number; cursor?: string };
    const page = await context.workspaces.list(cursor, limit);
    if (page.next === undefined) return jsonAnswer(page.workspaces);
    // More workspaces than the page holds: the next page is named by a cursor, in a header and as a `Link`, as fired events are.
    const next = new URL(c.req.url);
    next.searchParams.set("cursor", page.next);
    return jsonAnswer(page.workspaces, 200, { "x-next-cursor": page.next, link: `<${next.pathname}${next.search}>; rel="next"` });
  },

  deleteSandboxWorkspace: async ({ options, workspaces }, c) => {
    const name = c.req.param("name") ?? "";
    const unholdable = unholdableText(name);
    if (unholdable)
      return refusal({ options }, { ok: false, status: 400, detail: "The workspace name is invalid.", defects: [{ path: "path.name", message: unholdable }] });
    if (name === defaultWorkspace)
      return problemAnswer(options.errorMediaType, 409, `The workspace "${defaultWorkspace}" serves the sandbox's --token tokens and cannot be removed.`);
    if (!(await workspaces.remove(name))) return problemAnswer(options.errorMediaType, 404, `No workspace named ${JSON.stringify(name)}.`);
    return emptyAnswer(204);
  },
};
