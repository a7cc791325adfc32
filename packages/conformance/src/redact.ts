/**
 * Hiding the access token in what the kit prints, by the client's rule (`@bot-conversation/client`,
 * README "Token safety"): a token of 8 or more characters is replaced wherever it occurs; a shorter one
 * (never a real secret, but common in tests) only where it stands alone, not next to a letter, digit,
 * `_` or `-`, so that words which merely contain its letters are left as they are. The client keeps the
 * rule internal and the kit must not reach into it, so the kit implements it here, tested on its own.
 */

/** What the token is replaced with: the shell variable the curl reproductions use. */
export const tokenPlaceholder = "$BOT_CONVERSATION_TOKEN";

/** A token this long or longer is replaced wherever it occurs. */
const replacedAnywhereFromLength = 8;

/** A character that makes a short token part of a longer word when it stands next to it. */
const wordCharacter = /[\w-]/;

/** `text` with every occurrence of `token` that the rule hides replaced by `$BOT_CONVERSATION_TOKEN`; an empty token hides nothing. */
export function redactToken(text: string, token: string): string {
  if (token === "") return text;
  const anywhere = token.length >= replacedAnywhereFromLength;
  let redacted = "";
  let from = 0;
  for (let at = text.indexOf(token); at !== -1; at = text.indexOf(token, at + token.length)) {
    const before = text[at - 1] ?? "";
    const after = text[at + token.length] ?? "";
    const standsAlone = !wordCharacter.test(before) && !wordCharacter.test(after);
    redacted += text.slice(from, at) + (anywhere || standsAlone ? tokenPlaceholder : token);
    from = at + token.length;
  }
  return redacted + text.slice(from);
}
