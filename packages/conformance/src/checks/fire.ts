import type { ExchangeCheck } from "./types.ts";

/** `unknown_bot_not_found`, `unknown_trigger_not_found`, `unknown_conversation_not_found`: a request naming an unknown resource (`what`) is 404. */
export const notFound =
  (what: string): ExchangeCheck =>
  (exchange) =>
    exchange.status === 404 ? undefined : `expected 404 for ${what}; got ${exchange.status}`;

/** `payload_validation_rejection`: a fire with a value that fails validation (`what`) is the seed's 500, with details in the body. */
export const payloadRejection =
  (what: string): ExchangeCheck =>
  (exchange) => {
    if (exchange.status !== 500) return `expected 500 for ${what}; got ${exchange.status}`;
    return exchange.text.trim() === "" ? `expected the 500 for ${what} to carry details; got an empty body` : undefined;
  };

/** `payload_acceptance`, `payload_optional`: a fire the service must take (`what`) is a 200 with an empty body. */
export const payloadAcceptance =
  (what: string): ExchangeCheck =>
  (exchange) =>
    exchange.status !== 200
      ? `expected 200 for ${what}; got ${exchange.status}`
      : exchange.text !== ""
        ? `expected an empty body with the 200; got ${exchange.text.length} bytes`
        : undefined;

/** `payload_shape_rejection`: a payload that is no JSON object (`payload`, `what` it is) is refused: a 4xx, or the seed's 500 with details. */
export const payloadShapeRejection =
  (payload: unknown, what: string): ExchangeCheck =>
  (exchange, context) =>
    exchange.status >= 400 && exchange.status < 500
      ? undefined
      : payloadRejection(`externalEventPayload = ${JSON.stringify(payload)} (${what}; a 4xx also holds)`)(exchange, context);
