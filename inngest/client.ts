/**
 * The Inngest client (JOBS=inngest). Keys come from INNGEST_EVENT_KEY / INNGEST_SIGNING_KEY;
 * INNGEST_DEV=1 talks to a local dev server instead of Inngest Cloud.
 */

import { Inngest } from "inngest";

export const inngest = new Inngest({
  id: "bsc-pay",
  eventKey: process.env.INNGEST_EVENT_KEY,
  isDev: process.env.INNGEST_DEV !== undefined && process.env.INNGEST_DEV !== "0",
});
