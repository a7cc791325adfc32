import { conversationStatuses, type SearchConversationsQuery } from "@bot-conversation/types";

/** The filters the inbox offers: a subset of the search's query. */
export type SearchFilters = Pick<SearchConversationsQuery, "agentStageId" | "status" | "channelId">;

/** The channel identifiers the description names (`ChannelId`'s examples); the set is open, so the field takes any text. */
const namedChannels = ["directline", "platform"];

/** The filter bar: bot, status and channel; every change starts a new search. */
export function Filters({ filters, onChange }: { filters: SearchFilters; onChange: (filters: SearchFilters) => void }) {
  /** Sets one filter; an empty value removes it. */
  const set = (name: keyof SearchFilters, value: string) => {
    // Leaving the bot field unchanged is no new search.
    if ((filters[name] ?? "") === value) return;
    const { [name]: _removed, ...rest } = filters;
    onChange(value ? { ...rest, [name]: value } : rest);
  };
  return (
    <form className="filters" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
      <label>
        Bot (agentStageId)
        <input
          name="agentStageId"
          defaultValue={filters.agentStageId ?? ""}
          onBlur={(event) => set("agentStageId", event.target.value.trim())}
          // Enter applies the bot, as leaving the field does (the form has no submit button).
          onKeyDown={(event) => event.key === "Enter" && set("agentStageId", event.currentTarget.value.trim())}
        />
      </label>
      <label>
        Status
        <select name="status" value={filters.status ?? ""} onChange={(event) => set("status", event.target.value)}>
          <option value="">Any</option>
          {conversationStatuses.map((status) => (
            <option key={status}>{status}</option>
          ))}
        </select>
      </label>
      <label>
        Channel
        <input
          name="channelId"
          list="channels"
          placeholder="Any"
          defaultValue={filters.channelId ?? ""}
          onChange={(event) => set("channelId", event.target.value.trim())}
        />
        <datalist id="channels">
          {namedChannels.map((channel) => (
            <option key={channel} value={channel} />
          ))}
        </datalist>
      </label>
    </form>
  );
}
