/**
 * The Fetch adapter of the one pipeline: a `Request` in, a `Response` out, for `createSandbox`'s in-process `fetch`
 * and the MSW handlers (which run in a browser too: nothing here needs Node). The pipeline reads the `Request`
 * through the transport-neutral request (`http/context.ts`) and answers with its own `Answer`, made into a
 * `Response` here, with the headers the pipeline added on the way (`c.header`); a HEAD gets its GET's answer
 * without the body.
 */
import type { Answer } from "../operations/answer.ts";
import { fetchBodyOf, type RequestBody } from "../operations/request.ts";
import type { Handler } from "./context.ts";
import { RequestContext, type TransportRequest } from "./context.ts";

/** A Fetch `Request` as the pipeline reads it. */
class FetchRequest implements TransportRequest {
  readonly raw: Request;
  readonly network: boolean;
  #target: string | undefined;
  #body: RequestBody | undefined;

  constructor(request: Request, network: boolean) {
    this.raw = request;
    this.network = network;
  }
  get method(): string {
    return this.raw.method;
  }
  get url(): string {
    return this.raw.url;
  }
  get target(): string {
    // The URL's path and query: what follows its origin (a Request's URL is absolute and has a path).
    if (this.#target === undefined) {
      const { url } = this.raw;
      this.#target = url.slice(url.indexOf("/", url.indexOf("//") + 2));
    }
    return this.#target;
  }
  header(name: string): string | undefined {
    return this.raw.headers.get(name) ?? undefined;
  }
  get body(): RequestBody {
    this.#body ??= fetchBodyOf(this.raw);
    return this.#body;
  }
  get rawHeaders(): Headers {
    return this.raw.headers;
  }
  get signal(): AbortSignal {
    return this.raw.signal;
  }
}

/** Answers a Fetch `Request` through the pipeline; `network` says whether it came over the network (the control API's Host guard applies). */
export function answerFetch(pipeline: Handler, request: Request, network = false): Response | Promise<Response> {
  const c = new RequestContext(new FetchRequest(request, network));
  const answered = pipeline(c);
  return answered instanceof Promise ? answered.then((answer) => responseOf(answer, c, request.method)) : responseOf(answered, c, request.method);
}

/** Statuses whose answer has no body (a `Response` refuses one). */
const bodiless = new Set([101, 103, 204, 205, 304]);

/** The pipeline's answer as a `Response`, with the headers the pipeline added (`c.header`). */
function responseOf(answer: Answer, c: RequestContext, method: string): Response {
  const headers = new Headers();
  const lists = [answer.headers, c.answerHeaders];
  for (const list of lists) for (let index = 0; index < list.length; index += 2) headers.append(list[index]!, list[index + 1]!);
  const body = method === "HEAD" || bodiless.has(answer.status) ? null : answer.body;
  return new Response(body as BodyInit | null, { status: answer.status, headers });
}
