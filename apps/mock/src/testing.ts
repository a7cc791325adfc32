/**
 * For vitest suites in this workspace: one real Prism per test file. Imports vitest, which the
 * calling package brings (it is only a devDependency here), so it lives apart from the main entry.
 */
import { afterAll, beforeAll } from "vitest";
import { defaultMockOptions, type MockOptions } from "./options.ts";
import { type RunningMock, startMockOnFreePort } from "./prism.ts";

/** Starts Prism on 127.0.0.1 and a free port before the file's tests and stops it after; call the result to get it. */
export function useMock(options: Partial<Omit<MockOptions, "port">> = {}): () => RunningMock {
  let mock: RunningMock | undefined;
  beforeAll(async () => {
    mock = await startMockOnFreePort({ ...defaultMockOptions, ...options });
  });
  afterAll(async () => {
    await mock?.stop();
  });
  return () => {
    if (!mock) throw new Error("Prism is not running");
    return mock;
  };
}
