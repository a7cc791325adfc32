import type { ExternalEventTrigger } from "@bot-conversation/types";
import { Command } from "commander";
import { type ConnectionFlags, connect, connectionOptions, secrets } from "./connection.js";
import { schemaOf } from "./description.js";
import { type CommandIo, exitCodes } from "./io.js";
import { schemaColumns } from "./output/columns.js";
import { type CommandColumns, csvRawOption, type OutputFormat, outputOption, recordWriter } from "./output/format.js";

/** Columns of the triggers: the table shows each variable as `code: Type`; CSV holds `parameters` as JSON. */
export const triggerColumns: CommandColumns = {
  table: [
    { header: "externalEventId", get: (record) => (record as ExternalEventTrigger).externalEventId },
    { header: "externalEventName", get: (record) => (record as ExternalEventTrigger).externalEventName },
    {
      header: "variables",
      get: (record) =>
        Object.entries((record as ExternalEventTrigger).parameters)
          .map(([code, parameter]) => `${code}: ${parameter.type}`)
          .join(", "),
    },
  ],
  csv: schemaColumns(schemaOf("ExternalEventTrigger")),
};

/** The `triggers <agentStageId>` command. */
export function newTriggersCommand(io: CommandIo, done: (code: number) => void): Command {
  return connectionOptions(
    new Command("triggers")
      .description("List the external event triggers of a bot, with the variables each accepts.")
      .argument("<agentStageId>", "bot identifier"),
  )
    .addOption(outputOption())
    .addOption(csvRawOption())
    .addHelpText("after", "\nExample:\n  bot-conversation triggers 5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c --output json\n")
    .action(async (agentStageId: string, flags: ConnectionFlags & { output?: OutputFormat; csvRaw?: boolean }) => {
      const { client } = connect(flags, io);
      const triggers = await client.listExternalEventTriggers(agentStageId, { signal: io.signal });
      const writer = recordWriter(flags.output, io.stdout, triggerColumns, { secrets: [...secrets], csvRaw: flags.csvRaw });
      await writer.write(triggers);
      await writer.end();
      done(exitCodes.ok);
    });
}
