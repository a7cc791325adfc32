import type { SandboxState } from "./mocks.ts";

/** Where the inbox sends its requests, and as which bot: one setting each, from the address or the build's environment. */
export interface Settings {
  /** Base address of the service: the HTTP sandbox, the Prism mock or the real service; `undefined` for the sandbox inside the page (MSW). */
  readonly baseUrl: string | undefined;
  /** The `X-Token` sent with every request (the sandbox's by default; the mock takes any). */
  readonly token: string;
  /** The bot whose conversations are shown first. */
  readonly agentStageId: string;
  /** The in-page sandbox's named starting state (`default`, `empty`, `bot-without-triggers`, `large`). */
  readonly state: SandboxState | undefined;
}

/** The sandbox's token and the description's example bot. */
export const defaultSettings = { token: "sandbox-token", agentStageId: "5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c" } as const;

/**
 * Reads the settings: `?baseUrl=…&token=…&agentStageId=…&state=…` in the page's address first (one
 * build serves any target), then `VITE_BOT_CONVERSATION_BASE_URL`, `VITE_BOT_CONVERSATION_TOKEN` and
 * `VITE_BOT_CONVERSATION_AGENT_STAGE_ID` at build time, then the defaults. Without a base address the
 * inbox runs on the sandbox inside the page, with no server.
 *
 * The base address and the token always come from the same source: a `?baseUrl=` in the page's
 * address (which anyone can write into a link) is sent the page's `?token=`, or the sandbox's public
 * default, never the token of the build, so a link cannot lead the app to send that token elsewhere.
 * The build's token goes only to the build's base address, or to the sandbox inside the page.
 */
export function readSettings(search: string, env: Record<string, string | undefined>): Settings {
  const params = new URLSearchParams(search);
  const pageBaseUrl = params.get("baseUrl") || undefined;
  return {
    baseUrl: pageBaseUrl ?? (env["VITE_BOT_CONVERSATION_BASE_URL"] || undefined),
    token: params.get("token") || (pageBaseUrl ? undefined : env["VITE_BOT_CONVERSATION_TOKEN"]) || defaultSettings.token,
    agentStageId: params.get("agentStageId") || env["VITE_BOT_CONVERSATION_AGENT_STAGE_ID"] || defaultSettings.agentStageId,
    state: (params.get("state") || undefined) as SandboxState | undefined,
  };
}
