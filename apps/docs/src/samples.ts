import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { samplesDirectory } from "./paths.ts";

/** One entry of an operation's `x-codeSamples` (Redoc shows each as a tab). */
export interface CodeSample {
  /** Language used for highlighting. */
  lang: string;
  /** Tab title. */
  label: string;
  /** The sample's code. */
  source: string;
}

/** The sample files of each operation, in the order the tabs appear. */
export const sampleKinds = [
  { extension: "sh", lang: "Shell", label: "curl" },
  { extension: "ts", lang: "TypeScript", label: "TypeScript" },
] as const;

/** Path of an operation's sample file of the given extension. */
export function samplePath(operationId: string, extension: "sh" | "ts"): string {
  return join(samplesDirectory, `${operationId}.${extension}`);
}

/** Reads the code samples of one operation; every operation must have all of them. */
export function readCodeSamples(operationId: string): CodeSample[] {
  return sampleKinds.map(({ extension, lang, label }) => {
    const path = samplePath(operationId, extension);
    if (!existsSync(path)) throw new Error(`Operation ${operationId} has no ${label} sample: create ${path}`);
    return { lang, label, source: readFileSync(path, "utf8").trimEnd() };
  });
}

/** The operations of an OpenAPI document, keyed by operationId. */
export function operationsById(document: { paths: Record<string, Record<string, unknown>> }): Map<string, Record<string, unknown>> {
  const operations = new Map<string, Record<string, unknown>>();
  for (const pathItem of Object.values(document.paths)) {
    for (const value of Object.values(pathItem)) {
      const operationId = (value as { operationId?: unknown } | null)?.operationId;
      if (typeof operationId === "string") operations.set(operationId, value as Record<string, unknown>);
    }
  }
  return operations;
}

/** Returns a copy of the bundled description with `x-codeSamples` on every operation, read from `samples/`. */
export function withCodeSamples<T extends { paths: Record<string, Record<string, unknown>> }>(bundle: T): T {
  const copy = structuredClone(bundle);
  for (const [operationId, operation] of operationsById(copy)) {
    operation["x-codeSamples"] = readCodeSamples(operationId);
  }
  return copy;
}
