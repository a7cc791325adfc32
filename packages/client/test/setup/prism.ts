import { defaultMockOptions, startMockOnFreePort } from "@bot-conversation/mock";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base address of the Prism mock serving the bundled description. */
    prismUrl: string;
  }
}

/** Starts the workspace's real Prism mock on a free port for the test run, and stops it afterwards. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const mock = await startMockOnFreePort(defaultMockOptions);
  project.provide("prismUrl", mock.url);
  return () => mock.stop();
}
