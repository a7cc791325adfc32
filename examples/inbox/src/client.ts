import { createBotConversationClient } from "@bot-conversation/client";
import { readSettings } from "./settings.ts";

/** The inbox's settings, read once at start (see `readSettings`). */
export const settings = readSettings(location.search, import.meta.env);

/** The one client of the app: every query and the fire go through it. */
const client = createBotConversationClient({ baseUrl: settings.baseUrl, token: settings.token });
export { client };
