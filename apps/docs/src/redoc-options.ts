import { sampleKinds } from "./samples.ts";

/**
 * Redoc 3 options, passed to `redocly build-docs --openapi`. Redoc 3 shows only the sample
 * languages its `codeSamples.languages` lists (its default list has no TypeScript), matched by
 * label, so the list is the sample kinds of `samples/`.
 */
export const redocOptions = {
  codeSamples: { languages: sampleKinds.map(({ lang, label }) => ({ lang, label })) },
};
