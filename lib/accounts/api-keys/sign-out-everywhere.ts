import { z } from "zod";

/** "Sign out everywhere" may also revoke every API key (off unless asked: keys run the shop's server). */
export const signOutEverywhereSchema = z.object({
  revokeApiKeys: z.boolean({ error: "revokeApiKeys must be true or false" }).optional(),
});
