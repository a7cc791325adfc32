import type { Fixture } from "@bot-conversation/sandbox";

/** A bot with a trigger of every variable type, and three conversations of it. */
export const fixture: Fixture = {
  bots: [
    {
      agentStageId: "bot-1",
      triggers: [
        {
          externalEventId: "order-paid",
          externalEventName: "Order paid",
          parameters: {
            amount: { name: "Amount", type: "Number" },
            confirmed: { name: "Confirmed", type: "Boolean" },
            note: { name: "Note", type: "String" },
            paidAt: { name: "Paid at", type: "DateTime" },
            order: { name: "Order", type: "ComplexObject" },
          },
        },
        { externalEventId: "callback-requested", externalEventName: "Callback requested", parameters: {} },
      ],
    },
  ],
  conversations: [
    ...["c-1", "c-2"].map((id, index) => ({
      agentStageId: "bot-1",
      startedOn: `2026-11-2${index}T09:15:02+03:00`,
      conversation: { id, channelId: "directline", status: "Active", closingStatus: null, closingReason: null, channelData: null, members: [], history: [] },
    })),
    {
      agentStageId: "bot-1",
      startedOn: "2026-11-22T09:15:02+03:00",
      conversation: {
        id: "c-3",
        channelId: "platform",
        status: "Active",
        closingStatus: null,
        closingReason: null,
        channelData: {
          platform: { session: { id: "s-3", apps: null }, client: { app: null, externalId: null, userName: null }, options: { prompterMode: false } },
          originalChannelId: "platform",
        },
        members: [],
        history: [],
      },
    },
  ],
} as Fixture;
