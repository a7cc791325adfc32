/**
 * CONTRIBUTING's recipe "a control route", followed on a copy of the package (issue 49): the route's operation in
 * `openapi/sandbox-control.yaml` and its handler in `src/http/control.ts`, nothing else. The copy's description is
 * linted and bundled as the package's build does, and the sandbox, run from the copy's source in a process of its
 * own, then answers the route with everything the pipeline derives from the description: the token its `security`
 * asks for (401 without), the 405 with `Allow` for another method, a browser's preflight, the control API's Host guard
 * over HTTP, and the metrics' operation label.
 */
import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { afterAll, beforeAll, expect, test } from "vitest";

const run = promisify(execFile);
const packageRoot = fileURLToPath(new URL("..", import.meta.url));
const repositoryRoot = fileURLToPath(new URL("../../..", import.meta.url));

/** The new route's operation, as a contributor writes it (lint-clean: a summary, a tag, a named example, its errors). */
const operationYaml = `  /_sandbox/conversation-count:
    get:
      operationId: countSandboxConversations
      summary: Count the conversations
      description: The number of conversations the workspace holds.
      tags:
        - Inspection
      responses:
        '200':
          description: The count.
          content:
            application/json:
              schema:
                type: object
                additionalProperties: false
                required:
                  - conversations
                properties:
                  conversations:
                    type: integer
                    minimum: 0
              examples:
                five:
                  summary: Five conversations
                  value:
                    conversations: 5
        '401':
          $ref: '#/components/responses/Unauthorized'
        '403':
          $ref: '#/components/responses/Forbidden'
        '405':
          $ref: '#/components/responses/MethodNotAllowed'
`;

/** The new route's handler, one entry of `controlHandlers`. */
const handlerSource = `  countSandboxConversations: (context) => jsonAnswer({ conversations: context.index().counts().conversations }),
`;

/** What the copy's sandbox answers, each request sent through its HTTP handler (as the server hands it one). */
const driver = `import { createSandbox } from "./packages/sandbox/src/index.ts";
const sandbox = await createSandbox({ conversations: 5 });
const path = "/_sandbox/conversation-count";
const call = async (init, env = {}, to = path) => {
  const answer = await sandbox.handle(new Request("http://127.0.0.1" + to, init), env);
  return { status: answer.status, allow: answer.headers.get("allow"), methods: answer.headers.get("access-control-allow-methods"), text: await answer.text() };
};
const token = { "x-token": "sandbox-token" };
console.log(JSON.stringify({
  answered: await call({ headers: token }),
  head: await call({ method: "HEAD", headers: token }),
  refused: await call({}),
  otherMethod: await call({ method: "DELETE", headers: token }),
  preflight: await call({ method: "OPTIONS", headers: { origin: "http://app.test", "access-control-request-method": "GET" } }),
  otherHost: await call({ headers: { ...token, host: "rebinding.example" } }, { network: true }),
  metrics: await call({ headers: token }, {}, "/_sandbox/metrics"),
}));
await sandbox.close();
`;

let copy: string;
beforeAll(async () => {
  copy = await mkdtemp(join(tmpdir(), "sandbox-add-control-route-"));
  const sandbox = join(copy, "packages", "sandbox");
  for (const part of ["src", "openapi", "scripts", "package.json"]) await cp(join(packageRoot, part), join(sandbox, part), { recursive: true });
  await cp(join(repositoryRoot, "redocly.yaml"), join(copy, "redocly.yaml"));
  // What the copy reads and never changes: the service's description (the control API's refers to its schemas) and the installed dependencies.
  await symlink(join(repositoryRoot, "openapi"), join(copy, "openapi"), "dir");
  await symlink(join(packageRoot, "node_modules"), join(sandbox, "node_modules"), "dir");

  // The recipe's two edits.
  const description = join(sandbox, "openapi", "sandbox-control.yaml");
  const yaml = await readFile(description, "utf8");
  await writeFile(description, yaml.replace("\ncomponents:\n", `\n${operationYaml}components:\n`));
  const control = join(sandbox, "src", "http", "control.ts");
  const source = await readFile(control, "utf8");
  const table = "export const controlHandlers: Readonly<Record<string, OperationHandler>> = {\n";
  expect(source).toContain(table);
  await writeFile(control, source.replace(table, `${table}${handlerSource}`));

  // The package's build steps for the description (lint, as `pnpm lint` runs it; bundle; the copy without prose).
  const redocly = join(sandbox, "node_modules", ".bin", "redocly");
  await run(redocly, ["lint", "sandbox-control@v1", "--config", "../../redocly.yaml"], { cwd: sandbox });
  await run(redocly, ["bundle", "sandbox-control@v1", "--config", "../../redocly.yaml", "--output", "src/generated/sandbox-control.json"], { cwd: sandbox });
  await run(process.execPath, ["scripts/descriptions.ts"], { cwd: sandbox });
  await writeFile(join(copy, "driver.ts"), driver);
}, heavyTestTimeoutMs);

afterAll(async () => {
  if (copy) await rm(copy, { recursive: true, force: true });
});

test(
  "a control route added by its YAML and its handler answers, with its security, 405, Allow, CORS, guard and metrics label derived",
  async () => {
    const { stdout } = await run(process.execPath, ["driver.ts"], { cwd: copy });
    const answers = JSON.parse(stdout) as Record<string, { status: number; allow: string | null; methods: string | null; text: string }>;
    expect(answers["answered"]).toMatchObject({ status: 200, text: JSON.stringify({ conversations: 5 }) });
    expect(answers["head"]).toMatchObject({ status: 200, text: "" });
    // The control description's security (X-Token, the document's): no token, no answer.
    expect(answers["refused"]?.status).toBe(401);
    expect(answers["otherMethod"]).toMatchObject({ status: 405, allow: "GET, HEAD" });
    expect(answers["preflight"]).toMatchObject({ status: 204, methods: "GET,HEAD" });
    expect(answers["otherHost"]?.status).toBe(403);
    // Labelled by the route's operationId (the GET and its HEAD).
    expect(answers["metrics"]?.text).toContain('sandbox_requests_total{operation="countSandboxConversations",status="200",workspace="default"} 2');
  },
  heavyTestTimeoutMs,
);
