import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { fileURLToPath } from "node:url";
import { checkReadmeExamples } from "@bot-conversation/test-support/readme-examples";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { describe, expect, test, vi } from "vitest";
import { compiledControl, controlDescription, operationParameters, requestBodySchema, type SchemaObject } from "../src/description.ts";
import { defaultSwitches, startSandboxServer, switchDefinitions } from "../src/index.ts";
import { runAgainstSandbox, shellCommands } from "./support/readme-commands.ts";

vi.setConfig({ testTimeout: heavyTestTimeoutMs });

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);

describe("README.md", () => {
  test("every ts example compiles against the package", async () => {
    const examples = await checkReadmeExamples(packageDir);
    expect(examples).toHaveLength(5);
    expect(examples.filter((example) => example.diagnostics.length > 0)).toEqual([]);
  });

  // Each example runs as a module inside the package (so `@bot-conversation/sandbox` resolves to itself).
  const run = (index: number) => {
    const directory = fileURLToPath(new URL("../test-results/readme/", import.meta.url));
    mkdirSync(directory, { recursive: true });
    const file = `${directory}example-${index}.ts`;
    writeFileSync(file, blocks[index]!);
    const result = spawnSync(process.execPath, [file], { encoding: "utf8", timeout: 60_000 });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    return result.stdout;
  };

  test("the in-process example pages from 1 and prints the channels of five active conversations", () => {
    const [line] = run(0).split("\n");
    expect(line).toMatch(/^1 \d+ \[ ('(directline|platform|messenger_a|messenger_b)',? ?){5}\]$/);
  });

  test("the fixture example fires once, is refused for an unknown conversation, and reads the event back", () => {
    const output = run(1);
    expect(output).toMatch(/^true\n/);
    expect(output).toContain("externalEventId: 'callback-requested'");
    expect(output).toContain("conversationId: 'c-1'");
  });

  test("the fault example gets its page after two 503s", () => {
    expect(run(2)).toBe("20\n");
  });

  test("the MSW example answers a search through the handlers, 5 items, and the journal saw it", () => {
    expect(run(3)).toBe("200 5 1\n");
  });

  test("the workspaces example creates a workspace in memory whose token sees its own 5 conversations, beside the default 200", () => {
    expect(run(4)).toBe("201 5 200\n");
  });

  test("the switches table lists every switch with its default first", () => {
    for (const definition of switchDefinitions) {
      const row = readme.split("\n").find((line) => line.startsWith(`| \`--${definition.flag}\` |`));
      expect(row, definition.flag).toBeDefined();
      const defaultText = defaultSwitches[definition.key] === null ? "none" : String(defaultSwitches[definition.key]);
      expect(row!.split("|")[2]!.trim().startsWith(`\`${defaultText}\``), `${definition.flag} default`).toBe(true);
    }
  });

  describe("the control API table says what openapi/sandbox-control.yaml says", () => {
    /** Each route the table names (a code span `METHOD /path?query`), the body fields written after it, and its row's text. */
    const routes = controlTableRoutes(readme);
    const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
    const byRoute = new Map(routes.map((route) => [key(route.method, route.path), route]));

    test("its routes are exactly the description's operations, each once", () => {
      expect(routes.map((route) => key(route.method, route.path)).sort()).toEqual(
        compiledControl.operations.map((operation) => key(operation.method, operation.path)).sort(),
      );
    });

    test.each(compiledControl.operations.map((operation) => [key(operation.method, operation.path), operation.id] as const))(
      "%s: the query parameters it shows are the description's, all of them",
      (route, operationId) => {
        const shown = byRoute.get(route)?.query ?? [];
        const described = operationParameters(controlDescription, operationId).filter((parameter) => parameter.in === "query");
        expect([...shown].sort()).toEqual(described.map((parameter) => parameter.name).sort());
      },
    );

    test.each(routes.filter((route) => route.body !== undefined).map((route) => [key(route.method, route.path), route] as const))(
      "%s: the body fields it shows are the request body's, optional ones marked ?, all of them unless it ends with ...",
      (route, { body }) => {
        const operation = compiledControl.operations.find((candidate) => key(candidate.method, candidate.path) === route)!;
        const schema = resolved(requestBodySchema(controlDescription, operation.id));
        const properties = Object.keys((schema["properties"] as Record<string, unknown> | undefined) ?? {});
        const required = new Set((schema["required"] as string[] | undefined) ?? []);
        // A field some alternative requires (a fault's `status`, unless it asks for a `timeout`) may be written without `?`.
        const requiredSomewhere = new Set([
          ...required,
          ...((schema["anyOf"] ?? schema["oneOf"] ?? []) as SchemaObject[]).flatMap((alternative) => (alternative["required"] as string[] | undefined) ?? []),
        ]);
        for (const field of body!.fields) {
          expect(properties, `${route} shows ${field.name}`).toContain(field.name);
          if (field.optional) expect(required.has(field.name), `${route}: ${field.name} is required, not optional`).toBe(false);
          else expect(requiredSomewhere.has(field.name), `${route}: ${field.name} is optional: write "${field.name}"?`).toBe(true);
        }
        if (!body!.partial) expect(body!.fields.map((field) => field.name).sort()).toEqual([...properties].sort());
      },
    );

    test("the routes it says need no token are exactly those whose security is empty", () => {
      const open = routes.filter((route) => /\bno token\b/.test(route.row)).map((route) => key(route.method, route.path));
      expect(open.sort()).toEqual(
        compiledControl.operations
          .filter((operation) => operation.security.length === 0)
          .map((operation) => key(operation.method, operation.path))
          .sort(),
      );
    });
  });

  test("every curl line answers with JSON from a sandbox with the default data", async () => {
    const curls = shellCommands(readme).filter((command) => command.startsWith("curl") && command.includes("127.0.0.1:4011"));
    expect(curls.length).toBeGreaterThanOrEqual(2);
    const server = await startSandboxServer({ host: "127.0.0.1", port: 0 });
    try {
      for (const command of curls) {
        const body = JSON.parse(await runAgainstSandbox(command, server.url)) as unknown;
        expect(Array.isArray(body) ? body.length : (body as { items: unknown[] }).items.length, command).toBeGreaterThan(0);
      }
    } finally {
      await server.stop();
    }
  });
});

describe("README.md: reaching a sandbox from another machine on purpose", () => {
  test("the command line starts, answers the listed Host (its token then decides) and refuses any other", async () => {
    const line = shellCommands(readme).find((command) => command.startsWith("bot-conversation-sandbox --host 0.0.0.0"));
    expect(line).toBeDefined();
    // The same line, from the workspace, on loopback and any free port (a test listens on 127.0.0.1 only).
    const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url));
    const command = `${line!.replace("bot-conversation-sandbox", `'${process.execPath}' '${bin}'`).replace("--host 0.0.0.0", "--host 127.0.0.1")} --port 0`;
    const child = spawn("sh", ["-c", `exec ${command}`], { stdio: ["ignore", "pipe", "pipe"] });
    const exited = once(child, "exit");
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = "";
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          const match = /Sandbox ready at (\S+)/.exec(output);
          if (match) resolve(match[1]!);
        });
        void exited.then(() => reject(new Error(`exited before it was ready: ${output}`)));
      });
      const status = (host: string) =>
        new Promise<number>((resolve, reject) => {
          const target = new URL(url);
          const sent = request(
            { host: target.hostname, port: target.port, path: "/_sandbox/bots", headers: { host, "x-token": "sandbox-token" } },
            (response) => {
              response.resume();
              resolve(response.statusCode ?? 0);
            },
          );
          sent.on("error", reject);
          sent.end();
        });
      // The listed address passes the guard; the token is the random one of the line, so the default is a 401.
      expect(await status("192.168.1.20:4011")).toBe(401);
      expect(await status("evil.example")).toBe(403);
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
  });
});

/** A route of the README's control API table. */
interface ControlTableRoute {
  readonly method: string;
  readonly path: string;
  /** The query parameters it shows (`?limit=…&cursor=…`). */
  readonly query: readonly string[];
  /** The body it shows (`{ "seed"?, "conversations"? }`), when it shows one; `partial` when it ends with `...`. */
  readonly body?: { readonly fields: readonly { readonly name: string; readonly optional: boolean }[]; readonly partial: boolean } | undefined;
  /** The whole row, for what its text says. */
  readonly row: string;
}

/** The routes of the table `| Route | What it does |` under "## The control API": each code span `METHOD /path` in a row's first cell, and the `{ ... }` span after it. */
function controlTableRoutes(text: string): ControlTableRoute[] {
  const section = text.split(/^## The control API$/m)[1]!.split(/^## /m)[0]!;
  const table = section.split(/^\| Route \| What it does \|$/m)[1]!;
  const rows = table
    .slice(table.indexOf("\n") + 1)
    .split(/\n(?!\|)/)[0]!
    .split("\n")
    .slice(1);
  const routes: ControlTableRoute[] = [];
  for (const row of rows) {
    const routeCell = row.split(" | ")[0]!;
    let last: { method: string; path: string; query: string[]; body?: ControlTableRoute["body"]; row: string } | undefined;
    for (const [, span] of routeCell.matchAll(/`([^`]+)`/g)) {
      const route = /^(GET|HEAD|POST|PUT|PATCH|DELETE) (\/[^?\s]*)(?:\?(\S*))?$/.exec(span!);
      if (route) {
        last = { method: route[1]!, path: route[2]!, query: [...new URLSearchParams(route[3] ?? "").keys()], row };
        routes.push(last);
        continue;
      }
      const body = /^\{(.*)\}$/.exec(span!);
      if (!body || !last) throw new Error(`The control API table has a code span that is neither a route nor a body: ${span}`);
      const items = body[1]!.split(",").map((item) => item.trim());
      const partial = items.at(-1) === "...";
      last.body = {
        partial,
        fields: (partial ? items.slice(0, -1) : items).map((item) => {
          const field = /^"([^"]+)"(\?)?$/.exec(item);
          if (!field) throw new Error(`The control API table's body ${span} has a field that is not "name" or "name"?: ${item}`);
          return { name: field[1]!, optional: field[2] === "?" };
        }),
      };
    }
  }
  return routes;
}

/** A schema of the control description with its `$ref` (one step, as request bodies name their schema) followed. */
function resolved(schema: SchemaObject): SchemaObject {
  const reference = schema["$ref"];
  if (typeof reference !== "string") return schema;
  return (controlDescription.components.schemas as Record<string, SchemaObject>)[reference.replace("#/components/schemas/", "")]!;
}
