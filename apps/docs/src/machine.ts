import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveReference } from "./description.ts";
import { recordingPage } from "./recording.ts";

/**
 * The reference for machines, generated from the bundled description at every build: `llms.txt`
 * (the llmstxt.org convention: a Markdown index of Markdown pages), a Markdown page per operation
 * and per model, and the description itself as JSON and YAML. Every link is relative, so the files
 * work under any base path.
 */

/** A JSON Schema as the bundle writes it. */
type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  additionalProperties?: boolean | Schema;
  description?: string;
  title?: string;
  format?: string;
};
type Parameter = { $ref?: string; name: string; in: string; required?: boolean; description?: string; schema?: Schema };
type Operation = {
  operationId: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { $ref?: string; description?: string; content?: Record<string, { schema?: Schema }> };
  responses: Record<string, { $ref?: string; description?: string }>;
};
/** The parts of the bundled description the pages are made from. */
export interface Bundle {
  info: { title: string; summary?: string; description?: string; version: string };
  servers?: { url: string; description?: string }[];
  paths: Record<string, Record<string, Operation | Parameter[]>>;
  components: { schemas: Record<string, Schema>; parameters?: Record<string, Parameter>; responses?: Record<string, { description?: string }> };
}

/** The files of the reference for machines, relative to the site's root. */
export const machineFiles = {
  index: "llms.txt",
  json: "openapi/bot-conversation.json",
  yaml: "openapi/bot-conversation.yaml",
  operations: "operations",
  models: "models",
  recording: "tools/record.md",
} as const;

const methods = ["get", "post", "put", "patch", "delete"] as const;
const oneLine = (text = "") => text.replaceAll(/\s*\n\s*/g, " ").trim();
const cell = (text = "") => oneLine(text).replaceAll("|", "\\|");
/** A description as the page's own Markdown: its paragraphs and tables kept, each table row on its own line. */
const markdown = (text = "") => text.trim();
/** The first sentence of a description's first paragraph, for one line of `llms.txt` (a table or a list after it left out). */
const firstSentence = (text = "") =>
  oneLine(text.trim().split(/\n\s*\n/)[0])
    .split(". ")[0]!
    .replace(/[.:]$/, "");
const refName = (ref: string) => ref.split("/").at(-1) ?? ref;

/** A schema's type in a few words: a model's name (linked), an enumeration, a list of something. */
function typeOf(schema: Schema | undefined): string {
  if (!schema) return "any";
  if (schema.$ref) return `[${refName(schema.$ref)}](../models/${refName(schema.$ref)}.md)`;
  if (schema.enum) return `one of ${schema.enum.map((value) => `\`${JSON.stringify(value)}\``).join(", ")}`;
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  for (const key of ["anyOf", "oneOf"] as const) if (schema[key]) return schema[key].map(typeOf).join(" or ");
  if (schema.allOf) return schema.allOf.map(typeOf).join(" and ");
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  return (
    types.map((type) => (type === "array" ? `array of ${typeOf(schema.items)}` : schema.format ? `${type} (${schema.format})` : type)).join(" or ") || "any"
  );
}

/** Every field of a model, its own and those of the models it extends (`allOf`). */
function fieldsOf(bundle: Bundle, schema: Schema): { name: string; schema: Schema; required: boolean }[] {
  const own = Object.entries(schema.properties ?? {}).map(([name, field]) => ({ name, schema: field, required: schema.required?.includes(name) ?? false }));
  const inherited = (schema.allOf ?? []).flatMap((part) => fieldsOf(bundle, resolveReference(bundle, part)));
  const seen = new Set(own.map((field) => field.name));
  return [...inherited.filter((field) => !seen.has(field.name)), ...own];
}

/** Every operation of the bundle, with its method and path. */
export function operationsOf(bundle: Bundle): { method: string; path: string; operation: Operation; pathParameters: Parameter[] }[] {
  return Object.entries(bundle.paths).flatMap(([path, item]) => {
    const pathParameters = (item["parameters"] as Parameter[] | undefined) ?? [];
    return methods.flatMap((method) => (item[method] ? [{ method: method.toUpperCase(), path, operation: item[method] as Operation, pathParameters }] : []));
  });
}

function operationPage(bundle: Bundle, { method, path, operation, pathParameters }: ReturnType<typeof operationsOf>[number]): string {
  const parameters = [...pathParameters, ...(operation.parameters ?? [])].map((parameter) => resolveReference(bundle, parameter));
  const body = operation.requestBody && resolveReference(bundle, operation.requestBody);
  const bodySchema = body?.content?.["application/json"]?.schema;
  return [
    `# ${operation.summary ?? operation.operationId}`,
    `\`${method} ${path}\` (operationId \`${operation.operationId}\`). Authentication: the \`X-Token\` header.`,
    markdown(operation.description),
    "## Parameters",
    parameters.length === 0
      ? "None."
      : [
          "| Name | In | Required | Type | Description |",
          "|---|---|---|---|---|",
          ...parameters.map(
            (parameter) =>
              `| \`${parameter.name}\` | ${parameter.in} | ${parameter.required ? "yes" : "no"} | ${cell(typeOf(parameter.schema))} | ${cell(parameter.description)} |`,
          ),
        ].join("\n"),
    "## Request body",
    bodySchema ? `JSON: ${typeOf(bodySchema)}. ${oneLine(body?.description)}`.trim() : "None.",
    "## Responses",
    [
      "| Status | Description |",
      "|---|---|",
      ...Object.entries(operation.responses).map(([status, response]) => `| ${status} | ${cell(resolveReference(bundle, response).description)} |`),
    ].join("\n"),
    "",
  ].join("\n\n");
}

function modelPage(bundle: Bundle, name: string, schema: Schema): string {
  const fields = fieldsOf(bundle, schema);
  return [
    `# ${name}`,
    markdown(schema.description),
    fields.length > 0
      ? [
          "## Fields",
          [
            "| Field | Type | Required | Description |",
            "|---|---|---|---|",
            ...fields.map(
              (field) => `| \`${field.name}\` | ${cell(typeOf(field.schema))} | ${field.required ? "yes" : "no"} | ${cell(field.schema.description)} |`,
            ),
          ].join("\n"),
        ].join("\n\n")
      : `Type: ${typeOf(schema)}.`,
    "",
  ].join("\n\n");
}

/** The `llms.txt` index: what the service is, then a link to every page, each with a line of what it holds. */
export function llmsIndex(bundle: Bundle): string {
  const operations = operationsOf(bundle).map(
    ({ method, path, operation }) =>
      `- [${operation.summary ?? operation.operationId}](${machineFiles.operations}/${operation.operationId}.md): \`${method} ${path}\`. ${firstSentence(operation.description)}.`,
  );
  const models = Object.entries(bundle.components.schemas).map(
    ([name, schema]) => `- [${name}](${machineFiles.models}/${name}.md): ${firstSentence(schema.description) || typeOf(schema)}`,
  );
  return [
    `# ${bundle.info.title}`,
    `> ${oneLine(bundle.info.summary ?? "")} Version ${bundle.info.version} of this description. Every operation needs the \`X-Token\` header.`,
    "Markdown pages generated from the OpenAPI 3.1 description at each build of the reference; the description itself is linked below.",
    "## Operations",
    operations.join("\n"),
    "## Models",
    models.join("\n"),
    "## Description",
    [
      `- [OpenAPI description (JSON)](${machineFiles.json}): the whole description, bundled into one file`,
      `- [OpenAPI description (YAML)](${machineFiles.yaml}): the same, as YAML`,
    ].join("\n"),
    "## Optional",
    `- [Recording the real service](${machineFiles.recording}): \`bot-conversation record\`, a transparent proxy that writes a report against the description and a sandbox fixture that replays the traffic`,
    "",
  ].join("\n\n");
}

/** Writes the reference for machines into `distDirectory`, from the bundle and its two files (`openapi.json`, `openapi.yaml`). */
export function writeMachineReference(distDirectory: string, bundle: Bundle, bundleFiles: { json: string; yaml: string }): void {
  mkdirSync(join(distDirectory, machineFiles.operations), { recursive: true });
  mkdirSync(join(distDirectory, machineFiles.models), { recursive: true });
  mkdirSync(join(distDirectory, "openapi"), { recursive: true });
  mkdirSync(join(distDirectory, "tools"), { recursive: true });
  writeFileSync(join(distDirectory, machineFiles.recording), recordingPage);
  writeFileSync(join(distDirectory, machineFiles.index), llmsIndex(bundle));
  for (const entry of operationsOf(bundle))
    writeFileSync(join(distDirectory, machineFiles.operations, `${entry.operation.operationId}.md`), operationPage(bundle, entry));
  for (const [name, schema] of Object.entries(bundle.components.schemas))
    writeFileSync(join(distDirectory, machineFiles.models, `${name}.md`), modelPage(bundle, name, schema));
  copyFileSync(bundleFiles.json, join(distDirectory, machineFiles.json));
  copyFileSync(bundleFiles.yaml, join(distDirectory, machineFiles.yaml));
}

/** The reference's section that links the files for machines (relative links: they work under any base path). */
export const machineSection = `# For machines

The same reference as files a program or a language model reads: [llms.txt](${machineFiles.index}) (an index
after the llmstxt.org convention, linking a Markdown page per operation and per model), and the
description itself as [JSON](${machineFiles.json}) and [YAML](${machineFiles.yaml}). They are generated from
the description at every build.
`;
