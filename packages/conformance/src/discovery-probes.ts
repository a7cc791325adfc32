import { type FindingName, searchPeriods } from "@bot-conversation/openapi";
import { caseFor } from "./case.ts";
import { pageOf } from "./checks/paging.ts";
import { operationOf } from "./description.ts";
import type { Session } from "./session.ts";

/** Records one finding: its name (listed by an entry of `decisions.yaml`, which gives its point), the sentence, and the value. */
export type AddFinding = (name: FindingName, observed: string, value: unknown) => void;

/** A search with the bot filter (when given) and `query`; the page, or the status when it is not a page. */
async function search(session: Session, query: Record<string, string>): Promise<{ status: number; page: ReturnType<typeof pageOf> } | undefined> {
  if (!session.canSend) return undefined;
  const bot = session.settings.agentStageId ? { agentStageId: session.settings.agentStageId } : {};
  const answer = await session.exchange(caseFor(operationOf(session.description, "searchConversations"), { query: { ...bot, ...query } }));
  return answer && { status: answer.exchange.status, page: pageOf(answer.exchange) };
}

/** A large page size: refused, capped (the response reports a smaller one), or served. */
export async function discoverMaximumPageSize(session: Session, add: AddFinding): Promise<void> {
  const asked = 1000;
  const answer = await search(session, { pageSize: String(asked) });
  if (!answer) return;
  if (!answer.page)
    add("max_page_size", `pageSize=${asked} is refused with ${answer.status}: there is a maximum below ${asked}.`, {
      answer: "refused",
      status: answer.status,
    });
  else if (answer.page.pageSize < asked)
    add("max_page_size", `pageSize=${asked} is served with pageSize ${answer.page.pageSize}: the server caps the page size.`, {
      answer: "capped",
      pageSize: answer.page.pageSize,
    });
  else add("max_page_size", `pageSize=${asked} is served as asked: no maximum up to ${asked}.`, { answer: "accepted", pageSize: answer.page.pageSize });
}

/**
 * The period the date probes bound: the search filters' first (the seed's order: the start of the
 * conversation, `startFromDate`/`startToDate` on `startedOn`), read from the one table, never named here.
 */
const probedPeriod = searchPeriods[0];

/** The instant a known conversation gives the probed period, as the server wrote it; undefined when the item has none. */
const probedInstant = (item: Readonly<Record<string, unknown>> | undefined): string | undefined => {
  const value = probedPeriod && item?.[probedPeriod.field];
  return typeof value === "string" ? value : undefined;
};

/** A date range from and to the exact instant of a known conversation (the probed period's field): does it find that conversation? */
export async function discoverDateRangeEnd(session: Session, add: AddFinding, item: Readonly<Record<string, unknown>> | undefined): Promise<void> {
  const instant = probedInstant(item);
  if (!probedPeriod || !instant) return;
  const { field, from, to } = probedPeriod;
  const answer = await search(session, { [from]: instant, [to]: instant });
  if (!answer?.page) return;
  const found = answer.page.totalItemCount > 0;
  add(
    "date_range_end",
    found
      ? `${from} = ${to} = ${instant} finds the conversation whose ${field} is then: both bounds are included.`
      : `${from} = ${to} = ${instant} finds nothing, though a conversation's ${field} is then: a bound is exclusive.`,
    found ? "inclusive" : "exclusive",
  );
}

/** A query parameter the description does not list: refused or ignored. */
export async function discoverUnlistedParameters(session: Session, add: AddFinding): Promise<void> {
  const answer = await search(session, { conformanceUnlisted: "1" });
  if (!answer) return;
  add(
    "unlisted_query_parameters",
    answer.page
      ? "A query parameter the description does not list is ignored (200)."
      : `A query parameter the description does not list is refused with ${answer.status}.`,
    answer.page ? "ignored" : "rejected",
  );
}

/** Date filter values ISO 8601 allows but the one date rule does not name an instant by: a date alone and a time without an offset, in the probed period's start. */
export async function discoverDateFilterForms(session: Session, add: AddFinding, item: Readonly<Record<string, unknown>> | undefined): Promise<void> {
  const instant = probedInstant(item);
  if (!probedPeriod || !instant) return;
  const forms = { dateOnly: instant.slice(0, 10), offsetLess: instant.slice(0, 19) };
  const value: Record<string, string> = {};
  for (const [form, text] of Object.entries(forms)) {
    const answer = await search(session, { [probedPeriod.from]: text });
    if (!answer) return;
    value[form] = answer.page ? "accepted" : `refused (${answer.status})`;
  }
  add(
    "date_filter_forms",
    `${probedPeriod.from} as a date alone (${forms.dateOnly}) is ${value["dateOnly"]}; as a time without an offset (${forms.offsetLess}) it is ${value["offsetLess"]}.`,
    value,
  );
}

/** HEAD and OPTIONS on the search path, which the description does not list: what the server answers. */
export async function discoverHeadAndOptions(session: Session, add: AddFinding): Promise<void> {
  const path = operationOf(session.description, "searchConversations").path;
  const value: Record<string, number> = {};
  for (const method of ["HEAD", "OPTIONS"]) {
    if (!session.canSend) return;
    const answer = await session.exchange({ operationId: `${method} ${path}`, method, path, query: {}, authentication: "token" });
    if (!answer) return;
    value[method] = answer.exchange.status;
  }
  add("head_and_options", `HEAD on the search path answers ${value["HEAD"]}; OPTIONS answers ${value["OPTIONS"]}.`, value);
}
