/** The `record` command: the recorder in front of the real service, until Ctrl-C or SIGTERM. */
import { readFileSync } from "node:fs";
import { userFile, userPath } from "@bot-conversation/sandbox/command";
import { Command, Option } from "commander";
import { type CommandIo, exitCodes, UsageError } from "../io.js";
import { checkPersonalPointer } from "./pseudonyms.js";
import type { RecorderOptions } from "./recorder.js";

/** What a recording without `--salt` says on stderr. */
const noSaltNote = "note: no --salt: the pseudonyms are keyed by a random salt of this recording (pass --salt to keep them equal across recordings)\n";

/** The flags of `record` as commander hands them over. */
interface RecordFlags {
  readonly upstream?: string;
  readonly append?: boolean;
  readonly rebuild?: boolean;
  readonly fromHar?: string;
  readonly quiet?: boolean;
  readonly operation?: string[];
  readonly out: string;
  readonly port: string;
  readonly host: string;
  readonly salt?: string;
  readonly caFile?: string;
  readonly keepTexts?: boolean;
  readonly personal?: string[];
  readonly timeout: string;
}

/** The upstream URL checked: http or https, no user name or password (never quoted: it may hold one). */
function upstreamOf(text: string): string {
  if (!URL.canParse(text)) throw new UsageError(`--upstream: expected the service's base URL, such as https://bots.example.com; got ${JSON.stringify(text)}`);
  const url = new URL(text);
  if (url.username || url.password)
    throw new UsageError("--upstream: a URL with a user name or a password is refused (it is not shown); the client sends its own X-Token");
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`--upstream: expected an http or https URL; got ${url.protocol}`);
  return url.href;
}

/** An integer option within bounds, or a `UsageError` naming it. */
function integerOf(flag: string, text: string, min: number, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max)
    throw new UsageError(`${flag}: expected an integer from ${min} to ${max}; got ${JSON.stringify(text)}`);
  return Number(text);
}

/** The `record` command. */
export function newRecordCommand(io: CommandIo, done: (code: number) => void): Command {
  const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];
  return new Command("record")
    .description(
      'Record the real service: a transparent proxy that forwards each request and answers the upstream\'s bytes, journals each exchange as it completes, then writes a report, a sandbox fixture, a HAR and the switches the traffic shows. Prints "Recorder ready at <url>" and a line per exchange on stderr; Ctrl-C or SIGTERM writes the files and exits 0.',
    )
    .addOption(new Option("--upstream <url>", "base URL of the real service (http or https); required unless --rebuild or --from-har"))
    .addOption(
      new Option(
        "--out <dir>",
        "folder of the recording: exchanges.ndjson (the journal), exchanges.har, report.json, report.md, fixture.json, switches.json, open-points.json",
      ).makeOptionMandatory(),
    )
    .option("--append", "continue the recording the folder holds (a folder that holds one is refused without it)")
    .option("--from-har <file>", "record the exchanges of a HAR file (a browser's or Playwright's recordHar) instead of live traffic (no upstream)")
    .option("--rebuild", "write every file of the folder again from its journal, exchanges.ndjson (no upstream; nothing is served)")
    .option(
      "--operation <operationId>",
      "record only the exchanges of this operation, e.g. fireExternalEvent (repeatable; the others are forwarded, not recorded)",
      collect,
    )
    .option("--quiet", "no line per exchange on stderr (its operation, status and verdict)")
    .option("--port <port>", "port to listen on (0 takes any free port)", "4012")
    .option("--host <host>", "interface to listen on", "127.0.0.1")
    .option("--salt <text>", "key of the pseudonyms: the same salt gives the same pseudonyms (default: a random one for this recording)")
    .option("--ca-file <path>", "PEM file of CA certificates to trust for an HTTPS upstream, besides Node's and the system's")
    .option("--keep-texts", "write end users' texts and names as sent, not pseudonymised (only for data you own)")
    .option("--personal <pointer>", "also pseudonymise this field of a conversation summary: a JSON pointer, * for any array index (repeatable)", collect)
    .option("--timeout <ms>", "bound of every read of the upstream and of a client, in milliseconds", "60000")
    .addHelpText(
      "after",
      "\nExample:\n  bot-conversation record --upstream https://bots.example.com --out recording --port 0 --salt team-salt\n  BOT_CONVERSATION_BASE_URL=http://127.0.0.1:4012 bot-conversation search --all > /dev/null\n",
    )
    .action(async (given: RecordFlags) => {
      // The user's paths: relative to the folder the command was run in, through pnpm too (INIT_CWD).
      const flags = { ...given, out: userPath(given.out, io.env), ...(given.caFile === undefined ? {} : { caFile: userPath(given.caFile, io.env) }) };
      if (flags.rebuild) {
        if (flags.upstream !== undefined || flags.append || flags.fromHar !== undefined)
          throw new UsageError("--rebuild: reads the folder's journal only; give it without --upstream, --append and --from-har");
        const { rebuildRecording } = await import("./derive.js");
        const result = await rebuildRecording(flags.out);
        io.stdout.write(`Rebuilt ${result.exchanges} exchange${result.exchanges === 1 ? "" : "s"} into ${flags.out}: ${result.files.join(", ")}\n`);
        done(exitCodes.ok);
        return;
      }
      if (flags.fromHar !== undefined) {
        if (flags.upstream !== undefined) throw new UsageError("--from-har: records a HAR file, not live traffic; give it without --upstream");
        const file = userFile("--from-har", flags.fromHar, io.env);
        if (flags.salt === undefined && flags.keepTexts !== true) io.stderr.write(noSaltNote);
        const { recordFromHar } = await import("./session.js");
        const result = await recordFromHar(file, {
          out: flags.out,
          append: flags.append === true,
          keepTexts: flags.keepTexts === true,
          personal: personalPointers(flags.personal),
          ...(flags.salt === undefined ? {} : { salt: flags.salt }),
          ...(flags.operation === undefined ? {} : { operations: flags.operation }),
        });
        io.stdout.write(
          `Recorded ${result.exchanges} exchange${result.exchanges === 1 ? "" : "s"} from ${flags.fromHar} into ${flags.out}: ${result.files.join(", ")}\n`,
        );
        done(exitCodes.ok);
        return;
      }
      if (flags.upstream === undefined) throw new UsageError("--upstream <url>: required (the real service's base URL), unless --rebuild or --from-har");
      const options: RecorderOptions = {
        upstream: upstreamOf(flags.upstream),
        append: flags.append === true,
        ...(flags.operation === undefined ? {} : { operations: flags.operation }),
        out: flags.out,
        port: integerOf("--port", flags.port, 0, 65_535),
        host: flags.host,
        timeoutMs: integerOf("--timeout", flags.timeout, 1, 3_600_000),
        keepTexts: flags.keepTexts === true,
        personal: personalPointers(flags.personal),
        ...(flags.salt === undefined ? {} : { salt: flags.salt }),
        ...(flags.caFile === undefined ? {} : { ca: readCaFile(flags.caFile) }),
        log: (line) => void io.stderr.write(`${line}\n`),
        logExchanges: flags.quiet !== true,
      };
      if (options.keepTexts)
        io.stderr.write("warning: --keep-texts: end users' texts and names are written as sent; keep the files as private as the service's data\n");
      if (flags.salt === undefined) io.stderr.write(noSaltNote);
      // Loaded only to run: --help, completion and the program's other commands start without the recorder's modules.
      const { startRecorder } = await import("./recorder.js");
      const recorder = await startRecorder(options);
      // Ctrl-C and SIGTERM are the recorder's own to handle (the bin leaves them to it): the first stops it and
      // writes the files; any later one is absorbed, so a second Ctrl-C never cuts a write. The handlers are in
      // place before the ready line: a signal sent on reading it would otherwise end the process unhandled.
      let stopped = false;
      let resolveStop: () => void = () => undefined;
      const stopRequested = new Promise<void>((resolve) => (resolveStop = resolve));
      const onSignal = () => {
        if (stopped) return void io.stderr.write("note: still writing the files; the recorder exits once they are on disk\n");
        stopped = true;
        resolveStop();
      };
      if (io.signal?.aborted) onSignal();
      io.signal?.addEventListener("abort", onSignal, { once: true });
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, onSignal);
      io.stdout.write(`Recorder ready at ${recorder.url}\n`);
      await stopRequested;
      let result: Awaited<ReturnType<typeof recorder.stop>>;
      try {
        result = await recorder.stop();
      } finally {
        for (const signal of ["SIGINT", "SIGTERM"] as const) process.off(signal, onSignal);
      }
      io.stdout.write(`Recorded ${result.exchanges} exchange${result.exchanges === 1 ? "" : "s"} into ${flags.out}: ${result.files.join(", ")}\n`);
      done(exitCodes.ok);
    });
}

/** The `--personal` pointers, each checked: a `UsageError` names a bad one. */
function personalPointers(pointers: readonly string[] | undefined): string[] {
  return (pointers ?? []).map((pointer) => {
    try {
      return checkPersonalPointer(pointer);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  });
}

/** The CA file's text: a `UsageError` naming the file when it cannot be read or holds no certificate. */
function readCaFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`--ca-file ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? "error"}); expected a PEM file of CA certificates`);
  }
  if (!text.includes("-----BEGIN CERTIFICATE-----"))
    throw new UsageError(`--ca-file ${path}: holds no PEM certificate; expected a PEM file of CA certificates`);
  return text;
}
