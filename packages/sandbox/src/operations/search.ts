import { expectedButGot } from "@bot-conversation/client/text";
import type { ConversationPage } from "@bot-conversation/types";
import { operationParameters, serviceDescription, serviceEnum } from "../description.ts";
import { searchFiltersOf } from "../engine/filters.ts";
import type { SearchIndex } from "../engine/search-index.ts";
import { pageBody } from "../engine/summary.ts";
import { Answer, jsonHeaders } from "./answer.ts";
import { type OperationContext, refusal } from "./context.ts";
import { queryChecker, queryOf } from "./request.ts";

const checkQuery = queryChecker(operationParameters(serviceDescription, "searchConversations"));
const statuses = serviceEnum("ConversationStatus");

/**
 * `GET /api/v2/channels/conversations`: one page of the conversations matching every filter sent, for the request
 * target `target` (its path and query as sent). A page answered is kept among the workspace's last few
 * (`SearchAnswers`), so the same search over the same data answers with the same bytes.
 */
export function searchConversations(context: OperationContext, target: string): Answer {
  const index = context.index();
  const kept = context.searchAnswers.get(index, context.options, target);
  if (kept !== undefined) return kept;
  const answer = searchPage(context, index, queryOf(target));
  if (answer.status === 200) context.searchAnswers.set(index, context.options, target, answer);
  return answer;
}

/** One page of the conversations of `index` matching every filter of the query, or the refusal of the query. */
function searchPage(context: OperationContext, index: SearchIndex, searchParams: URLSearchParams): Answer {
  const { options } = context;
  const checked = checkQuery(searchParams, {
    rejectUnknown: options.unknownParameters === "reject",
    normalize: (name, value) =>
      name === "status" && options.statusCase === "insensitive" ? (statuses.find((status) => status.toLowerCase() === value.toLowerCase()) ?? value) : value,
  });
  if (!checked.ok) return refusal(context, checked);
  const query = checked.value;
  const pageSize = (query["pageSize"] as number | undefined) ?? options.defaultPageSize;
  const pageIndex = (query["pageIndex"] as number | undefined) ?? options.pageBase;
  if (options.maxPageSize !== null && pageSize > options.maxPageSize) {
    return refusal(context, {
      ok: false,
      status: 400,
      detail: "Invalid query parameters.",
      defects: [
        {
          path: "query.pageSize",
          message: expectedButGot(`an integer from 1 to ${options.maxPageSize} (this sandbox's --max-page-size)`, JSON.stringify(String(pageSize))),
        },
      ],
    });
  }
  if (pageIndex < options.pageBase) {
    return refusal(context, {
      ok: false,
      status: 400,
      detail: "Invalid query parameters.",
      defects: [
        {
          path: "query.pageIndex",
          message: expectedButGot(
            `an integer of at least ${options.pageBase} (pages count from ${options.pageBase} in this sandbox, --page-base)`,
            JSON.stringify(String(pageIndex)),
          ),
        },
      ],
    });
  }
  const offset = (pageIndex - options.pageBase) * pageSize;
  // Every filter by the one table; its dates read once, as instants, by the query check (the one date rule, parseDateTime).
  const filters = searchFiltersOf(query, options.dateTo === "inclusive");
  const { total, items: found } = index.search(filters, options.order, pageSize, offset);
  const envelope: PageEnvelope = {
    hasMore: offset + pageSize < total,
    pageIndex,
    pageSize,
    totalItemCount: total,
    totalPageCount: Math.ceil(total / pageSize),
    fromItemInclusive: Math.min(offset, total),
    toItemExclusive: Math.min(offset + pageSize, total),
  };
  // The stored summaries are joined as bytes, not parsed and serialized again: most of a search's time otherwise.
  return new Answer(200, pageBody(found, options.inboundDirection, envelopeJson(envelope)), jsonHeaders);
}

/** The page envelope without its items. */
type PageEnvelope = Omit<ConversationPage, "items">;

/**
 * The envelope as JSON, as `JSON.stringify` writes it (its fields are numbers and a boolean: nothing to escape),
 * written directly: `JSON.stringify` of the object cost a search about 0.7 µs of its CPU.
 */
export function envelopeJson(envelope: PageEnvelope): string {
  const { hasMore, pageIndex, pageSize, totalItemCount, totalPageCount, fromItemInclusive, toItemExclusive } = envelope;
  return `{"hasMore":${hasMore},"pageIndex":${pageIndex},"pageSize":${pageSize},"totalItemCount":${totalItemCount},"totalPageCount":${totalPageCount},"fromItemInclusive":${fromItemInclusive},"toItemExclusive":${toItemExclusive}}`;
}
