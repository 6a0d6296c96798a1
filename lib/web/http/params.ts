import { z } from "zod";
import { commonRefusal } from "../../base/errors";

/** Integer ids in paths (tokenId, domainId, api key id): a malformed one is VALIDATION_ERROR. */
export function parseIntegerId(value: string | undefined, name: string): number {
  if (value === undefined || !/^[1-9][0-9]{0,9}$/.test(value) || Number(value) > 2_147_483_647) {
    throw commonRefusal("VALIDATION_ERROR", "invalid-request", `${name} must be a positive integer`);
  }
  return Number(value);
}

const uuidSchema = z.uuid();

/** Public record ids (sessions, withdrawals) are UUIDs. */
export function parseUuid(value: string | undefined, name: string): string {
  if (value === undefined || !uuidSchema.safeParse(value).success) {
    throw commonRefusal("VALIDATION_ERROR", "invalid-request", `${name} must be a UUID`);
  }
  return value.toLowerCase();
}
