import type { Db } from "../../db";
import { expireSessionsWhere } from "./session-records";

/**
 * Job step: pending → expired for every session past expiresAt. A transfer mined in time but
 * confirmed later still completes the session afterwards (see session-state.ts).
 */
export async function expireDueSessions(db: Db, now = new Date()): Promise<number> {
  return (await expireSessionsWhere(db, undefined, now)).length;
}
