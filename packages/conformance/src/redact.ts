/**
 * Hiding the access token in what the kit prints: the toolkit's one redactor (`redactText` of
 * `@bot-conversation/client/text`, README "Token safety"), with the shell variable the curl
 * reproductions use as the replacement.
 */
import { redactJson, redactText } from "@bot-conversation/client/text";

/** What the token is replaced with: the shell variable the curl reproductions use. */
export const tokenPlaceholder = "$BOT_CONVERSATION_TOKEN";

/**
 * The forms of the token to hide: as sent, and in lower case, the form a header name echoing it takes
 * once Headers has read it (names are case-insensitive).
 */
const formsOf = (token: string): string[] => [token, token.toLowerCase()];

/** `text` with the token replaced by `$BOT_CONVERSATION_TOKEN`, by the client's rule; an empty token hides nothing. */
export const redactToken = (text: string, token: string): string => redactText(text, formsOf(token), tokenPlaceholder);

/** A JSON-able value (a report) with the token replaced in every string and key, at any depth. */
export const redactTokenJson = <T>(value: T, token: string): T => redactJson(value, formsOf(token), tokenPlaceholder);
