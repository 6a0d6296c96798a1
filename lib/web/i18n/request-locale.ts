import { cookies, headers } from "next/headers";
import { type Locale, negotiateLocale } from "./locale";

/** The checkout's language for this request: ?lang=, then the `lang` cookie, then Accept-Language. */
export async function requestLocale(query?: string | string[]): Promise<Locale> {
  const [h, c] = await Promise.all([headers(), cookies()]);
  return negotiateLocale({
    query: typeof query === "string" ? query : null,
    cookie: c.get("lang")?.value,
    acceptLanguage: h.get("accept-language"),
  });
}
