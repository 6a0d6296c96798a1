import { type Address, getAddress, isAddress } from "viem";
import { z } from "zod";

/**
 * Accepts any case; a mixed-case address must carry a valid EIP-55 checksum. Returns checksummed.
 */
export function parseAddress(value: string): Address | null {
  const trimmed = value.trim();
  if (!/^0x[0-9a-fA-F]{40}$/.test(trimmed)) return null;
  const mixedCase = trimmed.slice(2) !== trimmed.slice(2).toLowerCase() && trimmed.slice(2) !== trimmed.slice(2).toUpperCase();
  if (mixedCase && !isAddress(trimmed, { strict: true })) return null;
  return getAddress(trimmed.toLowerCase());
}

export const addressSchema = (field: string) =>
  z.string({ error: `${field} must be a string` }).transform((value, ctx) => {
    const address = parseAddress(value);
    if (!address) {
      ctx.addIssue({ code: "custom", message: `${field} must be a 0x-prefixed 20-byte address with a valid checksum` });
      return z.NEVER;
    }
    return address;
  });
