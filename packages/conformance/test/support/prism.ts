export { useMock as usePrism } from "@bot-conversation/mock/testing";

/** The bot of the description's examples, which Prism serves. */
export const exampleBot = "5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c";

/** The conversation of the description's examples. */
export const exampleConversation = "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c";
