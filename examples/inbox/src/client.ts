import { createBotConversationClient } from "@bot-conversation/client";
import { inPageBaseUrl } from "./mocks.ts";
import { readSettings } from "./settings.ts";

/** The inbox's settings, read once at start (see `readSettings`), with the in-page sandbox's address when no base address is set. */
export const settings = ((read) => ({ ...read, baseUrl: read.baseUrl ?? inPageBaseUrl, inPage: read.baseUrl === undefined }))(
  readSettings(location.search, import.meta.env),
);

/** The one client of the app: every query and the fire go through it. */
const client = createBotConversationClient({ baseUrl: settings.baseUrl, token: settings.token });

export { client };
