import { createInterface } from "node:readline/promises";
import { redactText, sanitizeText } from "@bot-conversation/client/text";
import type { FireExternalEventRequest } from "@bot-conversation/types";
import { Command, Option } from "commander";
import { type ConnectionFlags, connect, connectionOptions, secrets } from "./connection.js";
import { type CommandIo, exitCodes, UsageError, write } from "./io.js";
import { type OutputFormat, outputOption } from "./output/format.js";
import { eventPayload, variableTexts } from "./variables.js";

/** Flags of `fire`. */
interface FireFlags extends ConnectionFlags {
  readonly agentStageId: string;
  readonly externalEventId: string;
  readonly conversationId?: string;
  readonly externalConversationId?: string;
  readonly var: string[];
  readonly yes?: boolean;
  readonly output?: OutputFormat;
}

/** The `fire` command. */
export function newFireCommand(io: CommandIo, done: (code: number) => void): Command {
  return connectionOptions(
    new Command("fire")
      .description("Fire an external event into a conversation: runs the trigger's scenario. Asks first on a terminal; never retried.")
      .requiredOption("--agent-stage-id <id>", "bot of the trigger: its definitions type and check the variables")
      .requiredOption("--external-event-id <id>", "the trigger to fire")
      .addOption(new Option("--conversation-id <id>", "conversation to fire into").conflicts("externalConversationId"))
      .option("--external-conversation-id <id>", "conversation to fire into, by external identifier (<SESSION_ID>|livechat)")
      .option(
        "--var <name=value>",
        "a variable of the trigger, typed by its definition (repeatable)",
        (value: string, previous: string[]) => [...previous, value],
        [] as string[],
      )
      .option("--yes", "fire without asking (needed off a terminal)"),
  )
    .addOption(outputOption())
    .addHelpText(
      "after",
      "\nExample:\n  bot-conversation fire --agent-stage-id 5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c --external-event-id order-paid \\\n    --conversation-id 3f1e2d4c-5b6a-4789-8abc-def012345678 --var amount=149.9 --var confirmed=true --yes\n",
    )
    .action(async (flags: FireFlags) => done(await fire(flags, io)));
}

async function fire(flags: FireFlags, io: CommandIo): Promise<number> {
  const texts = variableTexts(flags.var);
  const target: Pick<FireExternalEventRequest, "conversationId" | "externalConversationId"> | undefined =
    flags.conversationId !== undefined
      ? { conversationId: flags.conversationId }
      : flags.externalConversationId !== undefined
        ? { externalConversationId: flags.externalConversationId }
        : undefined;
  if (!target) throw new UsageError("fire: expected --conversation-id <id> or --external-conversation-id <id>");
  const interactive = io.stdin?.isTTY === true && io.stderr.isTTY === true;
  if (!flags.yes && !interactive)
    throw new UsageError("fire: expected --yes off a terminal (a fire runs the trigger's scenario and is not asked about on a pipe)");
  const { client } = connect(flags, io);
  const triggers = await client.listExternalEventTriggers(flags.agentStageId, { signal: io.signal });
  const trigger = triggers.find((candidate) => candidate.externalEventId === flags.externalEventId);
  if (!trigger) {
    const known = triggers.map((candidate) => candidate.externalEventId).join(", ") || "none";
    throw new UsageError(`--external-event-id: bot ${flags.agentStageId} has no trigger ${JSON.stringify(flags.externalEventId)}; expected one of: ${known}`);
  }
  const request = { externalEventId: trigger.externalEventId, ...target, externalEventPayload: eventPayload(trigger, texts) } as FireExternalEventRequest;
  // The trigger's name and id come from the service: shown sanitized, the token redacted.
  const shown = (text: string) => sanitizeText(redactText(text, [...secrets]));
  if (
    !flags.yes &&
    !(await confirmed(
      io,
      `Fire "${shown(trigger.externalEventName)}" (${shown(trigger.externalEventId)}) into ${shown(JSON.stringify(target))} with ${shown(JSON.stringify(request.externalEventPayload))}? [y/N] `,
    ))
  ) {
    await write(io.stderr, "Not fired.\n");
    return exitCodes.failed;
  }
  // The client checks the request against the trigger once more and never retries a fire.
  await client.fireExternalEvent(request, { trigger, signal: io.signal });
  if ((flags.output ?? (io.stdout.isTTY ? "table" : "ndjson")) === "table") {
    await write(io.stdout, `Fired ${shown(trigger.externalEventId)} into ${shown(String(Object.values(target)[0]))}.\n`);
  } else {
    await write(io.stdout, `${redactText(JSON.stringify({ fired: true, ...request }), [...secrets])}\n`);
  }
  return exitCodes.ok;
}

/** Asks a yes/no question on the terminal; only `y` or `yes` confirms. */
async function confirmed(io: CommandIo, question: string): Promise<boolean> {
  const prompt = createInterface({ input: io.stdin as NodeJS.ReadableStream, output: io.stderr, terminal: true });
  try {
    return /^y(es)?$/i.test((await prompt.question(question, { signal: io.signal })).trim());
  } finally {
    prompt.close();
  }
}
