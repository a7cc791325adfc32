import { serveSite } from "./serve.ts";

await serveSite("Reference ready", 8080);
