import { searchConversationsInfiniteQueryOptions } from "@bot-conversation/query";
import type { ConversationSummary } from "@bot-conversation/types";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { client } from "./client.ts";
import { ErrorNotice } from "./ErrorNotice.tsx";
import type { SearchFilters } from "./Filters.tsx";

/** A bot's conversations, page after page as the list is scrolled to its end. */
export function ConversationList({
  filters,
  selectedId,
  onSelect,
}: {
  filters: SearchFilters;
  selectedId: string | undefined;
  onSelect: (conversation: ConversationSummary) => void;
}) {
  const conversations = useInfiniteQuery(searchConversationsInfiniteQueryOptions(client, filters));
  const { data, error, hasNextPage, isFetchingNextPage, fetchNextPage, isFetchNextPageError, refetch } = conversations;
  const list = useRef<HTMLElement>(null);
  const end = useRef<HTMLDivElement>(null);

  // The next page loads when the end of the list scrolls into view, unless one is loading or the last one failed (then Retry does it).
  useEffect(() => {
    if (!end.current || !hasNextPage || isFetchingNextPage || isFetchNextPageError) return;
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && void fetchNextPage(), { root: list.current });
    observer.observe(end.current);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);

  const items = data?.pages.flatMap((page) => page.items) ?? [];
  const total = data?.pages[0]?.totalItemCount;
  return (
    <section className="list" aria-label="Conversations" ref={list}>
      {total !== undefined && <p className="count">{total} conversations</p>}
      <ul>
        {items.map((conversation) => (
          <li key={conversation.id} data-id={conversation.id} aria-current={conversation.id === selectedId ? "true" : undefined}>
            <button type="button" onClick={() => onSelect(conversation)}>
              <span className={`status ${conversation.status}`}>{conversation.status}</span>
              <span className="channel">{conversation.channelId}</span>
              <time dateTime={conversation.latestMessageOn}>{new Date(conversation.latestMessageOn).toLocaleString()}</time>
              <span className="text">{conversation.latestMessageText || "(no messages)"}</span>
            </button>
          </li>
        ))}
      </ul>
      <div ref={end} className="end">
        {conversations.isPending && !error && <p>Loading conversations…</p>}
        {isFetchingNextPage && <p>Loading more…</p>}
        {error && conversations.isFetching && <p>Retrying…</p>}
        {error && (
          <ErrorNotice title="Conversations could not be loaded." error={error} onRetry={() => void (isFetchNextPageError ? fetchNextPage() : refetch())} />
        )}
        {data && !hasNextPage && !error && (
          <p className="done">{items.length === 0 ? "No conversations match these filters." : `All ${items.length} conversations loaded.`}</p>
        )}
      </div>
    </section>
  );
}
