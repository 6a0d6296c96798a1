/** A request's client (client-ip.ts) counted against one of the shared limits (lib/accounts/abuse/limits.ts). */

import { consumeLimit, type SharedLimitName } from "../../accounts/abuse/limits";
import { getDb } from "../../db";
import { clientKey } from "./client-ip";

export async function limitClient(name: SharedLimitName, headers: Headers, now = new Date()): Promise<void> {
  await consumeLimit(await getDb(), name, clientKey(headers), now);
}
