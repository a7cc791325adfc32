import { AbortError, TimeoutError } from "../errors.js";

/** One attempt of a request: aborted by its deadline or by the caller's signal, whichever comes first. */
export interface Attempt {
  /** The signal to give fetch; its reason is the typed error to throw. */
  readonly signal: AbortSignal;
  /** Ends the attempt's deadline and caller link; call it once the body has been read or dropped. */
  settle(): void;
}

/** Where a response keeps the attempt that produced it, until the body has been read. */
const attemptKey = Symbol("attempt");

/** Ties an attempt to its response, so whoever reads the body can settle it. */
export function keepAttempt(response: Response, attempt: Attempt): void {
  (response as { [attemptKey]?: Attempt })[attemptKey] = attempt;
}

/** Settles the attempt that produced `response`, if any: its body has been read. */
export function settleAttempt(response: Response): void {
  (response as { [attemptKey]?: Attempt })[attemptKey]?.settle();
}

class QueuedAttempt implements Attempt {
  readonly #controller = new AbortController();
  readonly signal = this.#controller.signal;
  settled = false;

  constructor(
    readonly deadline: number,
    private readonly caller: AbortSignal,
    private readonly method: string,
    private readonly onSettle: () => void,
  ) {
    caller.addEventListener("abort", this);
  }

  /** The caller's signal aborted. */
  handleEvent(): void {
    this.#controller.abort(new AbortError(`${this.method} request aborted by the caller`));
  }

  /** The deadline passed. */
  expire(timeoutMs: number): void {
    this.settled = true;
    this.caller.removeEventListener("abort", this);
    this.#controller.abort(new TimeoutError(`${this.method} attempt timed out after ${timeoutMs} ms`));
  }

  settle(): void {
    if (this.settled) return;
    this.settled = true;
    this.caller.removeEventListener("abort", this);
    this.onSettle();
  }
}

/**
 * Starts attempts that time out after `timeoutMs`. Every attempt of a transport has the same timeout, so
 * deadlines come in start order: a queue with one timer for its head costs less per request than a
 * timer each. The deadline keeps running after the response arrives, so reading the body is covered,
 * until the attempt is settled. The timer is unref'd: it never holds a Node process open.
 */
export function createAttempts(timeoutMs: number): (caller: AbortSignal, method: string) => Attempt {
  const queue: QueuedAttempt[] = [];
  let armed = false;

  function arm(ms: number): void {
    armed = true;
    (setTimeout(expire, ms) as { unref?: () => void }).unref?.();
  }

  function dropSettled(): void {
    while (queue[0]?.settled) queue.shift();
  }

  function expire(): void {
    armed = false;
    const now = performance.now();
    for (let head = queue[0]; head; head = queue[0]) {
      if (!head.settled && head.deadline > now) return arm(head.deadline - now);
      queue.shift();
      if (!head.settled) head.expire(timeoutMs);
    }
  }

  return (caller, method) => {
    const attempt = new QueuedAttempt(performance.now() + timeoutMs, caller, method, dropSettled);
    queue.push(attempt);
    if (!armed) arm(timeoutMs);
    return attempt;
  };
}
