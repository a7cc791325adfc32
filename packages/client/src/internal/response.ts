import {
  AbortError,
  apiErrorFor,
  BotConversationError,
  ConnectionError,
  TimeoutError,
  UnexpectedResponseError,
  type ApiErrorInit,
} from "../errors.js";

/** What openapi-fetch resolves to when asked for `parseAs: "text"`. */
type Pending = Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** Awaits an openapi-fetch call and returns its successful body, or throws a typed error. */
export type ResponseReader = (method: string, path: string, pending: Pending) => Promise<SuccessfulResponse>;

/** A 2xx response whose body was read as text. */
export class SuccessfulResponse {
  constructor(
    private readonly init: Omit<ApiErrorInit, "body" | "headers"> & { readonly response: Response; readonly tokens: ReadonlySet<string> },
    /** The body text; undefined when the response had none. */
    readonly text: string | undefined,
  ) {}

  /** The body parsed as JSON; a body that is empty or not JSON throws `UnexpectedResponseError`. */
  json(): unknown {
    if (this.text) {
      try {
        return JSON.parse(this.text);
      } catch {
        // handled below: a non-JSON body is a typed error, never a SyntaxError
      }
    }
    const type = this.init.response.headers.get("content-type") ?? "no content type";
    return this.error(`expected a JSON body; received ${this.text ? `${this.text.length} characters of ${type}` : "an empty body"}`, this.text);
  }

  /** Throws `UnexpectedResponseError` for this response, with the method and path in the message. */
  error(problem: string, body: unknown): never {
    const { method, path, status, response, tokens } = this.init;
    throw new UnexpectedResponseError(
      { method, path, status, headers: redactHeaders(response.headers, tokens), body: redact(body, tokens) },
      `${method} ${path} answered ${status} but ${problem}`,
    );
  }
}

/** Awaits an openapi-fetch call: a failure status becomes an `ApiError`, a thrown failure a typed error. */
export async function readResponse(method: string, path: string, pending: Pending, tokens: ReadonlySet<string>): Promise<SuccessfulResponse> {
  let result: Awaited<Pending>;
  try {
    result = await pending;
  } catch (error) {
    throw asClientError(error, method, path);
  }
  const { response } = result;
  const status = response.status;
  if (!response.ok) {
    throw apiErrorFor({ method, path, status, headers: redactHeaders(response.headers, tokens), body: redact(result.error, tokens) });
  }
  return new SuccessfulResponse({ method, path, status, response, tokens }, result.data as string | undefined);
}

/** Maps what fetch or a body read threw to the client's errors. */
function asClientError(error: unknown, method: string, path: string): BotConversationError {
  if (error instanceof BotConversationError) return error;
  const name = (error as { name?: unknown } | null)?.name;
  // The body read runs under the same signals as the attempt, so it fails with their DOMExceptions.
  if (name === "TimeoutError") return new TimeoutError(`${method} ${path} timed out while reading the response`);
  if (name === "AbortError") return new AbortError(`${method} ${path} aborted by the caller`);
  return new ConnectionError(`${method} ${path} failed: ${(error as Error).message}`, { cause: error });
}

const redacted = "[redacted]";

/** Replaces every token the client sent, wherever a server echoed it back. */
function redact(value: unknown, tokens: ReadonlySet<string>): unknown {
  if (tokens.size === 0 || value === undefined) return value;
  const text = typeof value === "string" ? value : JSON.stringify(value);
  let clean = text;
  for (const token of tokens) clean = clean.replaceAll(token, redacted);
  if (clean === text) return value;
  return typeof value === "string" ? clean : JSON.parse(clean);
}

/** Copies response headers into a plain record (lower-case names), redacting any echoed token. */
function redactHeaders(headers: Headers, tokens: ReadonlySet<string>): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = redact(value, tokens) as string;
  });
  return record;
}
