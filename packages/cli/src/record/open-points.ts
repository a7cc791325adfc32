/**
 * The points the service leaves open, as the traffic shows them, written as the sandbox's switches
 * (`switches.json`, the control API's `Switches` object: `createSandbox({ fixture, ...switches })`,
 * `PUT /_sandbox/switches`, `workspaces create`), each with the exchange that showed it. The first
 * exchange that shows a point decides it; a later one that shows another answer is noted. A value the
 * sandbox cannot take (a wrapped trigger list, another error media type) is noted, not written.
 */
import { readTriggerList } from "@bot-conversation/conformance";
import type { SandboxSwitches } from "@bot-conversation/sandbox";
import { switchDefinitions } from "@bot-conversation/sandbox";
import type { ConversationPage } from "@bot-conversation/types";
import { exchangeLine, type RecordedExchange } from "./exchange.js";

/** One switch the traffic showed: its value, the exchange and the place in its body that showed it. */
export interface ShownSwitch {
  /** The switch's value. */
  readonly value: string | number;
  /** The exchange, in one line (`GET /api/v2/channels/conversations?agentStageId=b-1 → 200`). */
  readonly exchange: string;
  /** What in it showed the value. */
  readonly shownBy: string;
}

/** The outbound spelling, as the description and the seed write it. */
const outbound = "Outbound";

/** Infers the sandbox's switches from exchanges, in the order they came. */
export class OpenPoints {
  readonly #shown = new Map<keyof SandboxSwitches, ShownSwitch>();
  readonly #notes = new Set<string>();

  /** Reads what an exchange of `operationId` shows. */
  observe(operationId: string | undefined, exchange: RecordedExchange): void {
    const line = exchangeLine(exchange);
    if (operationId === "searchConversations" && exchange.status === 200) this.#page(exchange, line);
    if (operationId === "listExternalEventTriggers" && exchange.status === 200) {
      const list = readTriggerList(exchange.json);
      if (list.shape === "array" || list.shape === "single")
        this.#show("triggerList", list.shape, line, `the body is ${list.shape === "array" ? "an array" : "one descriptor"}`);
      else if (list.shape === "wrapped")
        this.#notes.add(`${line}: the trigger list is wrapped in an object (property ${list.property}); the sandbox answers an array or one descriptor only`);
    }
    if (operationId !== undefined && exchange.status >= 400 && exchange.text !== "") {
      const mediaType = (exchange.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
      if (mediaType === "application/json" || mediaType === "application/problem+json")
        this.#show("errorMediaType", mediaType, line, "the error body's Content-Type");
      else this.#notes.add(`${line}: an error body of ${mediaType || "no media type"}; the sandbox answers application/json or application/problem+json only`);
    }
  }

  #page(exchange: RecordedExchange, line: string): void {
    const page = exchange.json as Partial<ConversationPage> | null;
    if (typeof page !== "object" || page === null) return;
    if (exchange.query["pageIndex"] === undefined && (page.pageIndex === 0 || page.pageIndex === 1))
      this.#show("pageBase", page.pageIndex, line, "/pageIndex of a search without pageIndex");
    if (exchange.query["pageSize"] === undefined && Number.isSafeInteger(page.pageSize) && page.pageSize! >= 1)
      this.#show("defaultPageSize", page.pageSize!, line, "/pageSize of a search without pageSize");
    const asked = Number(exchange.query["pageSize"]);
    if (Number.isSafeInteger(asked) && Number.isSafeInteger(page.pageSize) && page.pageSize! >= 1 && page.pageSize! < asked) {
      this.#show(
        "maxPageSize",
        page.pageSize!,
        line,
        `/pageSize ${page.pageSize} for pageSize=${asked} (the service caps a larger page size; the sandbox refuses one with a 400)`,
      );
    }
    const items = Array.isArray(page.items) ? page.items : [];
    const index = items.findIndex(
      (item) => typeof item?.latestMessageDirection === "string" && item.latestMessageDirection !== outbound && item.latestMessageDirection !== "",
    );
    if (index >= 0) this.#show("inboundDirection", items[index]!.latestMessageDirection, line, `/items/${index}/latestMessageDirection`);
  }

  #show(key: keyof SandboxSwitches, value: string | number, exchange: string, shownBy: string): void {
    const known = this.#shown.get(key);
    if (!known) this.#shown.set(key, { value, exchange, shownBy });
    else if (known.value !== value)
      this.#notes.add(`${exchange}: ${key} ${JSON.stringify(value)}, where ${known.exchange} showed ${JSON.stringify(known.value)} (kept)`);
  }

  /** The switches shown, in the sandbox's order of switches. */
  switches(): Partial<Record<keyof SandboxSwitches, string | number>> {
    return Object.fromEntries(
      switchDefinitions.flatMap((definition) => (this.#shown.has(definition.key) ? [[definition.key, this.#shown.get(definition.key)!.value]] : [])),
    );
  }

  /** Each switch shown with its flag and evidence, in the sandbox's order. */
  evidence(): { readonly key: keyof SandboxSwitches; readonly flag: string; readonly shown: ShownSwitch }[] {
    return switchDefinitions.flatMap((definition) => {
      const shown = this.#shown.get(definition.key);
      return shown ? [{ key: definition.key, flag: definition.flag, shown }] : [];
    });
  }

  /** What the traffic showed that the sandbox cannot answer the recorded way, or that disagreed. */
  notes(): string[] {
    return [...this.#notes];
  }
}
