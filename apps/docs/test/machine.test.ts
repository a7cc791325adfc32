import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Bundle, machineFiles, operationsOf } from "../src/machine.ts";
import { bundlePath, distDirectory, yamlBundlePath } from "../src/paths.ts";
import { createStaticServer, listen } from "../src/server.ts";

const bundle = JSON.parse(readFileSync(bundlePath, "utf8")) as Bundle;
const built = (file: string) => readFileSync(join(distDirectory, file), "utf8");
const index = built(machineFiles.index);

describe("the reference for machines, checked against the description", () => {
  it("llms.txt follows the llmstxt.org layout: a title, a summary quote, then sections of links", () => {
    expect(index.startsWith(`# ${bundle.info.title}\n\n> `)).toBe(true);
    expect(index).toMatch(/^## Operations$/m);
    expect(index).toMatch(/^## Models$/m);
    expect(index).toContain(`](${machineFiles.json})`);
    expect(index).toContain(`](${machineFiles.yaml})`);
  });

  it("llms.txt links the page on recording the real service, which names the command, its flags and the files it writes", () => {
    expect(index).toMatch(/^## Optional$/m);
    expect(index).toContain(`](${machineFiles.recording})`);
    const page = built(machineFiles.recording);
    for (const flag of [
      "--upstream",
      "--out",
      "--port",
      "--host",
      "--salt",
      "--ca-file",
      "--keep-texts",
      "--personal",
      "--timeout",
      "--operation",
      "--quiet",
      "--append",
      "--rebuild",
      "--from-har",
    ])
      expect(page, flag).toContain(flag);
    for (const file of ["exchanges.ndjson", "exchanges.har", "report.json", "report.md", "fixture.json", "switches.json", "open-points.json"])
      expect(page).toContain(`\`${file}\``);
  });

  it.each(operationsOf(bundle).map((entry) => [entry.operation.operationId, entry] as const))(
    "%s: linked from llms.txt, its page names its method, path, every parameter and every status",
    (operationId, { method, path, operation, pathParameters }) => {
      expect(index).toContain(`](${machineFiles.operations}/${operationId}.md)`);
      const page = built(`${machineFiles.operations}/${operationId}.md`);
      expect(page).toContain(`\`${method} ${path}\``);
      const parameters = [...pathParameters, ...(operation.parameters ?? [])].map((parameter) =>
        parameter.$ref ? bundle.components.parameters![parameter.$ref.split("/").at(-1)!]! : parameter,
      );
      for (const parameter of parameters) expect(page, parameter.name).toContain(`| \`${parameter.name}\` | ${parameter.in} |`);
      for (const status of Object.keys(operation.responses)) expect(page).toContain(`| ${status} |`);
    },
  );

  it.each(Object.keys(bundle.components.schemas))("model %s: linked from llms.txt, its page lists every field of the schema", (name) => {
    expect(index).toContain(`](${machineFiles.models}/${name}.md)`);
    const page = built(`${machineFiles.models}/${name}.md`);
    expect(page.startsWith(`# ${name}\n`)).toBe(true);
    for (const field of Object.keys(bundle.components.schemas[name]!.properties ?? {})) expect(page, field).toContain(`| \`${field}\` |`);
  });

  it("llms.txt gives each page one line, and no table is run onto a line of text", () => {
    const links = index.split("\n").filter((line) => line.startsWith("- ["));
    expect(links.length).toBe(operationsOf(bundle).length + Object.keys(bundle.components.schemas).length + 3);
    for (const line of links) expect(line, line).not.toContain("|");
  });

  it.each(Object.keys(bundle.components.schemas).filter((name) => bundle.components.schemas[name]!.description?.includes("|---")))(
    "model %s: the table of its description keeps a line per row on its page",
    (name) => {
      const page = built(`${machineFiles.models}/${name}.md`);
      const rows = bundle.components.schemas[name]!.description!.split("\n").filter((line) => line.startsWith("|"));
      expect(rows.length).toBeGreaterThan(2);
      for (const row of rows) expect(page.split("\n"), row).toContain(row.trim());
    },
  );

  it("the README tells of every machine file, llms.txt first", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    expect(readme).toMatch(/^## For machines: `llms.txt`$/m);
    for (const file of Object.values(machineFiles)) expect(readme, file).toContain(`\`${file}`);
  });

  it("serves the description itself, as JSON and as YAML, byte for byte", () => {
    expect(built(machineFiles.json)).toBe(readFileSync(bundlePath, "utf8"));
    expect(built(machineFiles.yaml)).toBe(readFileSync(yamlBundlePath, "utf8"));
  });

  it("the site links them, with relative addresses", () => {
    const html = built("index.html");
    for (const file of [machineFiles.index, machineFiles.json, machineFiles.yaml]) expect(html).toContain(`href="${file}"`);
  });
});

describe("served by the site's server", () => {
  const server = createStaticServer(distDirectory);
  let url: string;
  beforeAll(async () => {
    url = await listen(server, "127.0.0.1", 0);
  });
  afterAll(() => {
    server.close();
    server.closeAllConnections();
  });

  it.each([
    [machineFiles.index, "text/plain"],
    [`${machineFiles.operations}/fireExternalEvent.md`, "text/markdown"],
    [machineFiles.json, "application/json"],
    [machineFiles.yaml, "application/yaml"],
  ])("%s as %s", async (file, type) => {
    const response = await fetch(`${url}/${file}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain(type);
  });
});
