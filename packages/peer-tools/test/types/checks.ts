/**
 * What every generator's types must let a user do, as type-level checks: each entry of
 * `PeerTypeChecks<M>` is `true` when the generated models `M` behave, `false` when they do not.
 * A test file per generator expects every entry to be exactly `true`.
 */

/** The generated models the checks read, under the description's schema names; the rest is reached through them. */
export interface Models {
  /** The fire request body. */
  FireExternalEventRequest: unknown;
  /** The export model: channel data, members, history. */
  ConversationExport: { channelData: unknown; history: unknown[] };
  /** A search result page. */
  ConversationPage: { items: { members: { nickname: unknown }[] }[] };
  /** An error body. */
  ErrorDetails: unknown;
}

/** `true` when `Value` can be assigned to `Target`. */
type Accepts<Target, Value> = [Value] extends [Target] ? true : false;
/** `true` when `A` and `B` are the same type. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** `Check` when `Part` exists, `false` when the path to it led nowhere (`never`), so a missing part never passes. */
type Found<Part, Check> = [Part] extends [never] ? false : Check;
/** Narrowing by a tag, as `if (x.tag === value)` does for a union. */
type Narrow<Union, Tag extends string, Value> = Extract<Union, Record<Tag, Value>>;
/** An event activity narrowed by `type`, then by `eventName`. */
type Event<M extends Models, Name extends string> = Narrow<Narrow<Activity<M>, "type", "Event">, "eventName", Name>;
/** One history entry. */
type Activity<M extends Models> = M["ConversationExport"]["history"][number];
/** The message activity, narrowed by `type`. */
type Message<M extends Models> = Narrow<Activity<M>, "type", "Message">;
/** `channelData.platform` of the export. */
type Platform<M extends Models> = NonNullable<M["ConversationExport"]["channelData"]> extends { platform: infer P } ? P : never;
/** An element of an array-or-null field of the message. */
type ItemOf<M extends Models, Field extends string> =
  Message<M> extends Record<Field, infer List> ? (NonNullable<List> extends (infer Item)[] ? Item : never) : never;

/** The checks, one named entry each. */
export type PeerTypeChecks<M extends Models> = {
  /** A fire body with `conversationId` compiles. */
  fireByConversationId: Accepts<M["FireExternalEventRequest"], { conversationId: "c"; externalEventId: "e" }>;
  /** A fire body with `externalConversationId` compiles. */
  fireByExternalConversationId: Accepts<M["FireExternalEventRequest"], { externalConversationId: "x|livechat"; externalEventId: "e" }>;
  /** A fire body with neither identifier does not. */
  fireNeedsAnIdentifier: Accepts<M["FireExternalEventRequest"], { externalEventId: "e" }> extends true ? false : true;
  /** Number and Boolean variable values compile. */
  fireTakesEveryValueFormat: Accepts<
    M["FireExternalEventRequest"],
    { conversationId: "c"; externalEventId: "e"; externalEventPayload: { a: 1; b: true; c: "s"; d: { name: "f"; fileUrl: "u" } } }
  >;
  /** `session.apps` takes any object, and `null`. */
  appsIsOpen: Found<Platform<M>, Platform<M> extends { session: { apps: infer Apps } } ? Accepts<Apps, { anything: 1 } | null> : false>;
  /** `client.app` takes any object, and `null`. */
  appIsOpen: Found<Platform<M>, Platform<M> extends { client: { app: infer App } } ? Accepts<App, { anything: 1 } | null> : false>;
  /** `type: "Message"` narrows to the message, with its text. */
  messageNarrows: Found<Message<M>, Same<Message<M> extends { text: infer Text } ? Text : never, string>>;
  /** `type: "Event"` then `eventName: "trigger-fired"` narrows to that event, with its trigger type. */
  triggerFiredNarrows: Found<
    Event<M, "trigger-fired">,
    Event<M, "trigger-fired"> extends { triggerType: infer Trigger } ? Accepts<Trigger, "knowledge-base-answer-trigger"> : false
  >;
  /** `eventName: "error"` narrows to the error event, with its message. */
  errorEventNarrows: Found<Event<M, "error">, Same<Event<M, "error"> extends { message: infer Text } ? Text : never, string | null>>;
  /** The error body, any JSON value, takes `null` and an object. */
  errorDetailsIsAnyJson: Accepts<M["ErrorDetails"], null | { reason: "x" } | ["x"] | "x" | 1 | false>;
  /** `nickname`, any JSON value, takes `null`. */
  nicknameIsAnyJson: Accepts<M["ConversationPage"]["items"][number]["members"][number]["nickname"], null | "x" | { a: 1 }>;
  /** A button's `value`, any JSON value, takes `null`. */
  buttonValueIsAnyJson: Found<ItemOf<M, "buttons">, ItemOf<M, "buttons"> extends { value: infer Value } ? Accepts<Value, null | "x" | { a: 1 }> : false>;
  /** An attachment's `content`, any JSON value or `null`, takes `null`. */
  attachmentContentIsAnyJson: Found<
    ItemOf<M, "attachments">,
    ItemOf<M, "attachments"> extends { content: infer Content } ? Accepts<Content, null | "x" | { a: 1 }> : false
  >;
};

/** Every check passing, exactly `true` (a check that came out `boolean` fails too). */
export type AllPass = { [Check in keyof PeerTypeChecks<Models>]: true };
