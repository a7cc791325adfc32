import type { ConversationPage } from "@bot-conversation/types";
import type { BodyCheck } from "./call-options.js";
import { isJsonObject } from "./describe.js";

/** Whether a value is a whole number, never negative: what the envelope's counts are. */
export const isCount = (value: unknown): boolean => Number.isSafeInteger(value) && (value as number) >= 0;

/**
 * What each field of the page envelope must be, in a message's words. Typed as every field of the
 * generated `ConversationPage`, so a field added to the description fails to compile until it is checked.
 */
const envelope: Record<keyof ConversationPage, "an array" | "a boolean" | "a whole number"> = {
  items: "an array",
  hasMore: "a boolean",
  pageIndex: "a whole number",
  pageSize: "a whole number",
  totalItemCount: "a whole number",
  totalPageCount: "a whole number",
  fromItemInclusive: "a whole number",
  toItemExclusive: "a whole number",
};

/** Checks a search body against the page envelope, and that every item is an object, naming the first field that is not. */
export const toPage: BodyCheck<ConversationPage> = (body, fail) => {
  const page = (isJsonObject(body) ? body : fail("expected an object", body)) as Record<string, unknown[]>;
  for (const [field, expected] of Object.entries(envelope)) {
    const value = page[field];
    if (!(expected === "an array" ? Array.isArray(value) : expected === "a boolean" ? typeof value === "boolean" : isCount(value)))
      fail(`${field}: expected ${expected}`, value);
  }
  const bad = page["items"]!.findIndex((item) => !isJsonObject(item));
  if (bad > -1) fail(`items[${bad}]: expected an object`, page["items"]![bad]);
  return page as unknown as ConversationPage;
};
