import type { ConversationSummary } from "@bot-conversation/types";
import { useState } from "react";
import { ConversationList } from "./ConversationList.tsx";
import { settings } from "./client.ts";
import { Filters, type SearchFilters } from "./Filters.tsx";
import { Triggers } from "./Triggers.tsx";

/** The inbox: filters above a bot's conversations (infinite scroll); the chosen conversation's triggers and fire form beside them. */
export function App() {
  const [filters, setFilters] = useState<SearchFilters>({ agentStageId: settings.agentStageId });
  const [selected, setSelected] = useState<ConversationSummary | undefined>();
  return (
    <main>
      <header>
        <h1>Inbox</h1>
        <p className="target">
          {settings.inPage ? (
            "Service: the sandbox inside this page (MSW), no server"
          ) : (
            <>
              Service: <code>{settings.baseUrl}</code>
            </>
          )}
        </p>
      </header>
      <Filters filters={filters} onChange={(next) => (setFilters(next), setSelected(undefined))} />
      <div className="panes">
        <ConversationList filters={filters} selectedId={selected?.id} onSelect={setSelected} />
        <section className="detail" aria-label="Conversation">
          {selected ? (
            filters.agentStageId ? (
              <Triggers agentStageId={filters.agentStageId} conversation={selected} />
            ) : (
              <p>Pick a bot in the filters to fire its triggers.</p>
            )
          ) : (
            <p>Choose a conversation to see its bot's triggers.</p>
          )}
        </section>
      </div>
    </main>
  );
}
