import type { SandboxHandlersOptions } from "@bot-conversation/sandbox/msw";

/** A named starting state of the sandbox. */
export type SandboxState = NonNullable<SandboxHandlersOptions["state"]>;

/** The address the in-page sandbox answers at: no server has it, MSW's service worker hands its requests to the page. */
export const inPageBaseUrl = "https://sandbox.bot-conversation.invalid";

/**
 * Starts the sandbox inside the page: MSW's service worker (`mockServiceWorker.js`, served beside the
 * app) passes every request to `inPageBaseUrl` to the sandbox's handlers, which run the same rules
 * over the same seeded data as the HTTP sandbox. Loaded only in that mode, so the HTTP build ships
 * none of it. Resolves once the worker intercepts and the data is loaded.
 */
export async function startInPageSandbox(state: SandboxState | undefined): Promise<void> {
  const [{ createSandboxHandlers }, { setupWorker }] = await Promise.all([import("@bot-conversation/sandbox/msw"), import("msw/browser")]);
  const handlers = createSandboxHandlers({ baseUrl: inPageBaseUrl, ...(state ? { state } : {}) });
  await setupWorker(...handlers).start({ quiet: true, onUnhandledFrame: "bypass", serviceWorker: { url: `${import.meta.env.BASE_URL}mockServiceWorker.js` } });
  await handlers.sandbox;
}
