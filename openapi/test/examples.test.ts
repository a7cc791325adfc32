import { describe, expect, it } from "vitest";
import {
  description,
  type ExampleObject,
  type MediaTypeObject,
  operations,
  type ParameterObject,
  problemsOf,
  resolve,
  resolveIfReference,
  type SchemaObject,
} from "./support/description.js";

interface ExampleCase {
  where: string;
  schema: string | SchemaObject;
  value: unknown;
}

function bodies(): { at: string; media: MediaTypeObject }[] {
  return operations().flatMap(({ operation }) =>
    [
      ...Object.entries(operation.requestBody?.content ?? {}).map(([type, media]) => ({ at: `request ${type}`, media })),
      ...Object.entries(operation.responses).flatMap(([status, response]) =>
        Object.entries(resolveIfReference(response).content ?? {}).map(([type, media]) => ({ at: `${status} ${type}`, media })),
      ),
    ].map(({ at, media }) => ({ at: `${operation.operationId} ${at}`, media })),
  );
}

function mediaTypeExamples(): ExampleCase[] {
  return bodies().flatMap(({ at, media }) =>
    Object.entries(media.examples ?? {}).map(([name, example]) => ({
      where: `${at} example "${name}"`,
      schema: media.schema,
      value: resolveIfReference(example).value,
    })),
  );
}

function parameterExamples(): ExampleCase[] {
  return operations().flatMap(({ operation, path }) => {
    const pathLevel = (description.paths[path]?.["parameters"] ?? []) as ParameterObject[];
    return [...pathLevel, ...(operation.parameters ?? [])].map((parameter) => {
      const resolved = resolveIfReference<ParameterObject>(parameter as ParameterObject | { $ref: string });
      return { where: `${operation.operationId} parameter ${resolved.name}`, schema: resolved.schema, value: resolved.example };
    });
  });
}

function schemaExamples(): ExampleCase[] {
  const cases: ExampleCase[] = [];
  const visit = (schema: unknown, where: string): void => {
    if (typeof schema !== "object" || schema === null) return;
    const node = schema as SchemaObject;
    if (Array.isArray(node["examples"]) && !("$ref" in node)) {
      (node["examples"] as unknown[]).forEach((value, index) => {
        cases.push({ where: `${where} examples[${index}]`, schema: node, value });
      });
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === "examples") continue;
      visit(child, `${where}/${key}`);
    }
  };
  for (const [name, schema] of Object.entries(description.components.schemas)) visit(schema, name);
  return cases;
}

/** Model pages pair a schema with a named example through the reference's schemaDefinition tag. */
function modelPageExamples(): ExampleCase[] {
  const pairing = /\{% schemaDefinition schemaRef="#\/components\/schemas\/(\w+)" exampleRef="(#\/components\/examples\/\w+)"/g;
  return description.tags.flatMap((tag) =>
    [...tag.description.matchAll(pairing)].map(([, schema, example]) => ({
      where: `model page ${schema} example ${example}`,
      schema: schema!,
      value: resolve<ExampleObject>(example!).value,
    })),
  );
}

describe("named examples", () => {
  const all = [...mediaTypeExamples(), ...parameterExamples(), ...schemaExamples(), ...modelPageExamples()];

  it("exist for every body, parameter and model page", () => {
    expect(
      bodies()
        .filter(({ media }) => Object.keys(media.examples ?? {}).length === 0)
        .map(({ at }) => at),
    ).toEqual([]);
    expect(bodies().length).toBeGreaterThan(0);
    expect(parameterExamples()).toHaveLength(10);
    expect(modelPageExamples().map((example) => example.where)).toContain("model page ConversationExport example #/components/examples/ConversationExportFull");
  });

  it.each(all.map((example) => [example.where, example] as const))("%s validates against its schema", (_where, example) => {
    expect(problemsOf(example.schema, example.value)).toEqual([]);
  });

  it("every component example is used by a body or a model page", () => {
    const referrers = JSON.stringify([description.paths, description.tags, description.components.responses]);
    const used = new Set([...referrers.matchAll(/#\/components\/examples\/(\w+)/g)].map(([, name]) => name));
    expect(Object.keys(description.components.examples).filter((name) => !used.has(name))).toEqual([]);
  });

  it("fire examples cover every variable type of the trigger they fire", () => {
    const triggers = resolve<ExampleObject>("#/components/examples/ExternalEventTriggerArray").value as {
      externalEventId: string;
      parameters: Record<string, { type: string }>;
    }[];
    const fired = Object.entries(description.components.examples)
      .filter(([name]) => name.startsWith("Fire"))
      .map(([, example]) => example.value as { externalEventId: string; externalEventPayload: Record<string, unknown> });
    const typesFired = fired.flatMap(({ externalEventId, externalEventPayload }) => {
      const trigger = triggers.find((candidate) => candidate.externalEventId === externalEventId);
      expect(trigger, `trigger ${externalEventId}`).toBeDefined();
      return Object.keys(externalEventPayload).map((code) => trigger!.parameters[code]?.type);
    });
    expect(new Set(typesFired)).toEqual(new Set(description.components.schemas["VariableType"]!["enum"] as string[]));
  });
});
