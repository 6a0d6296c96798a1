import { z } from "zod";
import { addressSchema } from "../../engine/chain/address";

export const registerTokenSchema = z.object({
  contractAddress: addressSchema("contractAddress"),
  network: z.string({ error: 'network must be a string, e.g. "bsc"' }).trim().min(1, { error: "network is required" }),
});
