import type {
  Activity,
  ChannelData,
  ConversationClosingReason,
  ConversationClosingStatus,
  ConversationExport,
  ConversationStatus,
  EventActivity,
  EventName,
  ExternalEventTrigger,
  Member,
  MessageActivity,
  VariableType,
} from "@bot-conversation/types";
import { serviceEnum } from "../description.ts";
import type { StoredBot, StoredConversation } from "../model.ts";
import { formatWithOffset } from "./dates.ts";
import { exampleData } from "./examples.ts";
import { Random } from "./random.ts";

/** Generated data: the bots (with triggers), and each conversation generated on demand from its index. */
export interface GeneratedData {
  /** The bots, each with triggers that together cover every variable type. */
  readonly bots: StoredBot[];
  /** Number of conversations. */
  readonly count: number;
  /** The conversation at `index` (from 0), always the same for the same seed: a drawn one is generated afresh on each call, an example is the one object (not to be changed). */
  conversationAt(index: number): StoredConversation;
  /** Every conversation in order, generated as they are read (100,000 never sit in memory at once). */
  readonly conversations: Iterable<StoredConversation>;
  /** The conversation at `index` as the search index reads it: the same, but for the identifiers inside its history and its events' timestamps, drawn and left empty (see `SandboxData`). */
  searchedAt(index: number): StoredConversation;
}

/** Channels of the generated conversations: the seed's `directline` and `platform`, and its two placeholder messenger names. */
const channels = ["directline", "platform", "messenger_a", "messenger_b"] as const;
const statuses = serviceEnum("ConversationStatus") as readonly ConversationStatus[];
const closingStatuses = serviceEnum("ConversationClosingStatus") as readonly ConversationClosingStatus[];
const closingReasons = serviceEnum("ConversationClosingReason") as readonly ConversationClosingReason[];
const eventNames = serviceEnum("EventName") as readonly EventName[];
const triggerNames = serviceEnum("TriggerName");
/** The closing statuses of a conversation still open. */
const openClosingStatuses = closingStatuses.filter((value) => value !== "SessionClosed");
/** Generated conversations start within the 90 days before this instant, so the data is the same on every run. */
const generatedUntil = Date.parse("2026-11-20T18:00:00Z");
const offsets = [180, 0, 60, -300, 330];
const botRoles = ["Order assistant", "Support bot", "Booking assistant", "Billing helper"];
/** What a conversation is about; `{n}` in a text stands for the order or visit number it is about. */
const topicTexts = [
  { intent: "order-status", question: "Where is my order {n}?", answer: "Your order {n} left our warehouse today.", scenario: "Order status" },
  { intent: "delivery-date", question: "When will order {n} arrive?", answer: "Order {n} arrives in two to four working days.", scenario: "Delivery" },
  { intent: "refund", question: "I want a refund for order {n}.", answer: "I have opened refund request {n} for you.", scenario: "Refunds" },
  {
    intent: "change-address",
    question: "Can I change the address of order {n}?",
    answer: "Please send the new address for order {n}.",
    scenario: "Address change",
  },
  { intent: "book-visit", question: "I need an appointment next week.", answer: "I booked visit {n} for you.", scenario: "Booking" },
];
/** The topics with their texts split at `{n}` once, so a conversation joins its number in rather than searching each text. */
const topics = topicTexts.map((topic) => ({ ...topic, question: withNumber(topic.question), answer: withNumber(topic.answer) }));

/** A text with `{n}` in it as a function of the number. */
function withNumber(text: string): (number: string) => string {
  const [first, ...rest] = text.split("{n}");
  return (number) => {
    let filled = first!;
    for (const part of rest) filled += number + part;
    return filled;
  };
}

const triggerTemplates: { id: string; name: string; parameters: [string, string, VariableType][] }[] = [
  {
    id: "order-status-changed",
    name: "Order status changed",
    parameters: [
      ["orderNumber", "Order number", "String"],
      ["orderTotal", "Order total", "Number"],
      ["isPaid", "Paid", "Boolean"],
      ["deliveryDate", "Delivery date", "DateTime"],
      ["deliveryAddress", "Delivery address", "ComplexObject"],
      ["courierName", "Courier", "PersonName"],
      ["invoice", "Invoice", "File"],
    ],
  },
  {
    id: "callback-requested",
    name: "Callback requested",
    parameters: [
      ["callbackTime", "Callback time", "DateTime"],
      ["customerName", "Customer", "PersonName"],
    ],
  },
  {
    id: "payment-received",
    name: "Payment received",
    parameters: [
      ["amount", "Amount", "Number"],
      ["receipt", "Receipt", "File"],
      ["isFull", "Paid in full", "Boolean"],
    ],
  },
  {
    id: "document-ready",
    name: "Document ready",
    parameters: [
      ["document", "Document", "File"],
      ["comment", "Comment", "String"],
    ],
  },
  {
    id: "appointment-reminder",
    name: "Appointment reminder",
    parameters: [
      ["visitTime", "Visit time", "DateTime"],
      ["place", "Place", "ComplexObject"],
      ["doctor", "Doctor", "PersonName"],
    ],
  },
  { id: "survey-completed", name: "Survey completed", parameters: [] },
];

/** Given and family names of generated users: the sandbox's own short lists. */
const givenNames = [
  "Ada",
  "Bruno",
  "Chloe",
  "Dmitri",
  "Elena",
  "Farid",
  "Grace",
  "Hiro",
  "Ines",
  "Jonas",
  "Kavya",
  "Liam",
  "Maya",
  "Noah",
  "Olga",
  "Pedro",
  "Quinn",
  "Rosa",
  "Sami",
  "Tara",
  "Umar",
  "Vera",
  "Wen",
  "Yara",
  "Zoe",
];
const familyNames = [
  "Adams",
  "Becker",
  "Costa",
  "Dubois",
  "Evans",
  "Fischer",
  "Garcia",
  "Hansen",
  "Ivanova",
  "Jensen",
  "Kowalski",
  "Lopez",
  "Moreau",
  "Nakamura",
  "Okafor",
  "Petrov",
  "Rossi",
  "Silva",
  "Tanaka",
  "Novak",
  "Weber",
  "Yilmaz",
];

/**
 * Generates the sandbox's data from a seed. The first bot is the description's example bot with its
 * example triggers, and the first conversations (up to `count`) are the description's example
 * conversations (see `exampleData`), so requests written against the mock find them; the rest is
 * drawn from the seed: two more bots whose triggers together cover all seven variable types, and
 * conversations on every channel, in every status and closing status, whose histories (about ten
 * activities) carry buttons, intents, knowledge-base answers, attachments and all eleven event
 * kinds; platform conversations have a session identifier. `count` is the total.
 */
export function generateData(seed: string, count: number): GeneratedData {
  const random = new Random(seed, 0);
  const examples = exampleData();
  const generatedBots = botRoles.slice(1, 3).map((role, index): StoredBot & { name: string } => ({
    agentStageId: random.uuid(),
    name: role,
    triggers: [triggerTemplates[0]!, ...random.sample(triggerTemplates.slice(1), 2 + (index % 2))].map(toTrigger),
  }));
  const fromExamples = examples.conversations.slice(0, count);
  const generatedAt = (index: number, whole: boolean): StoredConversation => {
    if (index < fromExamples.length) return fromExamples[index]!;
    const drawn = index - fromExamples.length;
    return conversation(new Random(seed, index + 1), generatedBots[drawn % generatedBots.length]!, drawn, whole);
  };
  const conversationAt = (index: number) => generatedAt(index, true);
  return {
    bots: [examples.bot, ...generatedBots],
    count,
    conversationAt,
    searchedAt: (index) => generatedAt(index, false),
    conversations: {
      *[Symbol.iterator]() {
        for (let index = 0; index < count; index++) yield conversationAt(index);
      },
    },
  };
}

function toTrigger(template: (typeof triggerTemplates)[number]): ExternalEventTrigger {
  return {
    externalEventId: template.id,
    externalEventName: template.name,
    parameters: Object.fromEntries(template.parameters.map(([code, name, type]) => [code, { name, type }])),
  };
}

/**
 * The conversation drawn from `random`; not `whole`, what no search reads is drawn and left empty: the identifiers
 * inside its history (activities, scenarios, intents) and its events' timestamps. That is what the search index
 * reads, with a third of the UUIDs and half the timestamps to write.
 */
function conversation(random: Random, bot: StoredBot & { name: string }, index: number, whole: boolean): StoredConversation {
  const uuid = () => random.uuid();
  const activityId = whole ? uuid : () => (random.skipUuid(), "");
  // The first twelve conversations go through every channel in every status; the rest are drawn at random.
  const inCycle = index < channels.length * statuses.length;
  const channelId = inCycle ? channels[index % channels.length]! : random.pick(channels);
  const status = inCycle ? statuses[Math.floor(index / channels.length)]! : random.pick(statuses);
  const offset = random.pick(offsets);
  const startedMs = generatedUntil - random.int(0, 90 * 86_400) * 1000;
  const user: Member = { id: uuid(), name: index % 7 === 3 ? null : `${random.pick(givenNames)} ${random.pick(familyNames)}`, role: "User" };
  const botMember: Member = { id: bot.agentStageId, name: bot.name, role: "Bot" };
  const topic = random.pick(topics);
  const number = String(random.int(10_000, 99_999));
  let clock = startedMs;
  const at = (maxSeconds: number) => formatWithOffset((clock += random.int(1, maxSeconds) * 1000), offset);
  /** An event's timestamp: the clock moved on as for a message, the time written only in the whole conversation. */
  const eventAt = whole ? at : (maxSeconds: number) => ((clock += random.int(1, maxSeconds) * 1000), "");
  const startText = whole ? formatWithOffset(clock, offset) : "";
  const scenarioId = activityId();
  const history: Activity[] = [
    { id: activityId(), type: "Event", timestamp: startText, eventName: "trigger-fired", triggerType: "start-trigger", scenarioId },
    { id: activityId(), type: "Event", timestamp: startText, eventName: "scenario-started", scenarioId, scenarioName: topic.scenario },
  ];
  const message = (from: Member, to: Member, text: string, extra: Partial<MessageActivity> = {}): MessageActivity => ({
    id: activityId(),
    type: "Message",
    timestamp: at(90),
    text,
    from,
    recipient: to,
    buttons: null,
    recognizedIntents: null,
    knowledgeBaseAnswers: null,
    attachments: null,
    ...extra,
  });
  history.push(
    message(botMember, user, `Hello! I am the ${bot.name.toLowerCase()}. How can I help?`, {
      buttons: [
        { title: topic.scenario, value: topic.intent, type: "postBack", isSelected: index % 2 === 0 },
        { title: "Talk to an operator", value: "operator", type: "postBack", isSelected: false },
      ],
    }),
  );
  if (index % 2 === 0) history.push({ id: activityId(), type: "Event", timestamp: eventAt(5), eventName: "menu-item-selected", text: topic.scenario });
  history.push(
    message(user, botMember, topic.question(number), {
      recognizedIntents: [{ id: activityId(), name: topic.intent, score: (random.int(50, 99) / 100).toFixed(2) }],
      attachments:
        index % 5 === 0
          ? [{ contentType: "image/jpeg", contentUrl: `https://files.example.com/uploads/${number}.jpg`, content: null, name: `${number}.jpg` }]
          : null,
    }),
  );
  history.push(
    message(botMember, user, topic.answer(number), {
      knowledgeBaseAnswers: index % 3 === 0 ? [{ id: `kb-${number}`, question: topic.question(number), answer: topic.answer(number), score: "0.87" }] : null,
    }),
  );
  history.push(event(random, activityId, eventNames[index % eventNames.length]!, eventAt(30), number));
  history.push(event(random, activityId, "successfull-service", eventAt(10), number));
  const userGoesLast = index % 3 === 1;
  if (userGoesLast) history.push(message(user, botMember, random.pick(["Thank you!", "Great, thanks.", "OK"])));
  if (status === "Operator") history.push({ id: activityId(), type: "Event", timestamp: eventAt(20), eventName: "TransferToOperatorInitiated" });
  const export_: ConversationExport = {
    id: uuid(),
    channelId,
    status,
    ...closing(status, index),
    channelData: channelId === "platform" ? platformChannelData(random, index) : null,
    members: [user, botMember],
    history,
  };
  return { agentStageId: bot.agentStageId, startedOn: formatWithOffset(startedMs, offset), conversation: export_ };
}

function closing(status: ConversationStatus, index: number): Pick<ConversationExport, "closingStatus" | "closingReason"> {
  if (status === "Closed") return { closingStatus: "SessionClosed", closingReason: closingReasons[index % closingReasons.length]! };
  const closingStatus = index % 6 === 0 ? null : openClosingStatuses[index % openClosingStatuses.length]!;
  return { closingStatus, closingReason: null };
}

function platformChannelData(random: Random, index: number): ChannelData {
  return {
    platform: {
      session: { id: random.uuid(), apps: index % 2 === 0 ? null : {} },
      client: {
        app: null,
        externalId: `crm-contact-${random.int(1000, 99_999)}`,
        userName: `${random.pick(givenNames)}.${random.pick(familyNames)}${random.int(1, 99)}`.toLowerCase(),
      },
      options: { prompterMode: index % 3 === 0 },
    },
    originalChannelId: random.pick(["directline", "messenger_a", "messenger_b"]),
  };
}

/** One event activity of the given kind, with plausible values for its fields; its identifiers from `activityId`. */
function event(random: Random, activityId: () => string, eventName: EventName, timestamp: string, number: string): EventActivity {
  const id = activityId();
  const base = { id, type: "Event" as const, timestamp };
  switch (eventName) {
    case "successfull-service":
      return { ...base, eventName, isSuccess: random.chance(0.9) };
    case "custom-event":
      return { ...base, eventName, name: random.pick(["order-tracked", "faq-opened", "rating-given"]) };
    case "scenario-started":
      return { ...base, eventName, scenarioId: null, scenarioName: "Follow-up" };
    case "menu-item-selected":
      return { ...base, eventName, text: "Talk to an operator" };
    case "trigger-fired":
      return { ...base, eventName, triggerType: random.pick(triggerNames) as "intent-trigger", scenarioId: activityId() };
    case "error":
      return { ...base, eventName, message: "The order service did not answer in time.", stackTrace: null };
    case "promptAccepted":
      return { ...base, eventName, isAccepted: true, text: `Your order ${number} is on its way.` };
    case "promptRejected":
      return { ...base, eventName, isAccepted: false, text: "Would you like to rate our service?" };
    case "CreatePlatformAppElement":
      return {
        ...base,
        eventName,
        url: `https://platform.example.com/apps/support/tickets/${number}`,
        appElementName: `Request ${number}`,
        appElementId: number,
        appElementNamespace: "support",
        appElementCode: "tickets",
      };
    case "StartProcess":
      return {
        ...base,
        eventName,
        url: `https://platform.example.com/processes/instances/${number}`,
        instanceId: number,
        processId: "refund-approval",
        instanceName: `Refund for order ${number}`,
      };
    case "TransferToOperatorInitiated":
      return { ...base, eventName };
  }
}
