/**
 * Baseline of the CLI export (run as a process of its own, like the command): the client's pager
 * walking every conversation of a search, looking at each; prints the count.
 */
import { createBotConversationClient } from "@bot-conversation/client";

const [baseUrl = "", token = "", pageSize = "500"] = process.argv.slice(2);
const client = createBotConversationClient({ baseUrl, token });
let count = 0;
for await (const conversation of client.iterateConversations({ pageSize: Number(pageSize) })) if (conversation.id) count++;
process.stdout.write(`${count}\n`);
