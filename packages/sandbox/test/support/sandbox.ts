import { afterAll } from "vitest";
import { createSandbox, type Sandbox } from "../../src/index.ts";
import type { SandboxOptions } from "../../src/options.ts";

/** The token every test sends unless it tests authentication. */
export const token = "sandbox-token";

/** An in-process sandbox for the tests of one file, closed after them. */
export async function sandboxForTests(options: Partial<SandboxOptions> = {}): Promise<Sandbox & { call(path: string, init?: RequestInit): Promise<Response> }> {
  const sandbox = await createSandbox({ conversations: 60, ...options });
  afterAll(() => sandbox.close());
  return Object.assign(sandbox, {
    call: (path: string, init: RequestInit = {}) =>
      sandbox.fetch(`http://sandbox.test${path}`, {
        ...init,
        headers: { "x-token": token, ...(init.body ? { "content-type": "application/json" } : {}), ...init.headers },
      }),
  });
}

/** A JSON POST/PUT body for `call`. */
export const json = (method: string, body: unknown): RequestInit => ({ method, body: JSON.stringify(body) });
