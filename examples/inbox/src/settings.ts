/** Where the inbox sends its requests, and as which bot: one setting each, from the address or the build's environment. */
export interface Settings {
  /** Base address of the service: the HTTP sandbox (default), the Prism mock, or the real service. */
  readonly baseUrl: string;
  /** The `X-Token` sent with every request. */
  readonly token: string;
  /** The bot whose conversations are shown first. */
  readonly agentStageId: string;
}

/** The sandbox `pnpm start` serves, its token, and the description's example bot. */
export const defaultSettings: Settings = {
  baseUrl: "http://127.0.0.1:4011",
  token: "sandbox-token",
  agentStageId: "5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c",
};

/**
 * Reads the settings: `?baseUrl=…&token=…&agentStageId=…` in the page's address first (one build
 * serves any target), then `VITE_BOT_CONVERSATION_BASE_URL`, `VITE_BOT_CONVERSATION_TOKEN` and
 * `VITE_BOT_CONVERSATION_AGENT_STAGE_ID` at build time, then the defaults.
 */
export function readSettings(search: string, env: Record<string, string | undefined>): Settings {
  const params = new URLSearchParams(search);
  const pick = (name: keyof Settings, variable: string) => params.get(name) || env[variable] || defaultSettings[name];
  return {
    baseUrl: pick("baseUrl", "VITE_BOT_CONVERSATION_BASE_URL"),
    token: pick("token", "VITE_BOT_CONVERSATION_TOKEN"),
    agentStageId: pick("agentStageId", "VITE_BOT_CONVERSATION_AGENT_STAGE_ID"),
  };
}
