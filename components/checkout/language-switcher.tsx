"use client";

import { Languages } from "lucide-react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { LOCALE_NAMES, LOCALES, type Locale } from "@/lib/web/i18n/locale";

/** Remembers the choice in a cookie and puts it in the URL, so a shared link keeps the language. */
export function LanguageSwitcher({ locale, label }: { locale: Locale; label: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  return (
    <label className="inline-flex items-center gap-1.5 text-sm text-muted-foreground">
      <Languages className="size-4" aria-hidden />
      <span className="sr-only">{label}</span>
      <select
        value={locale}
        onChange={(event) => {
          const next = event.target.value;
          // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from Safari before 18.4 and older phones' browsers
          document.cookie = `lang=${next}; path=/; max-age=31536000; samesite=lax`;
          const search = new URLSearchParams(params.toString());
          search.set("lang", next);
          router.replace(`${pathname}?${search.toString()}`);
        }}
        className="rounded-md border border-input bg-background px-2 py-1 text-sm text-foreground focus-visible:outline-2 focus-visible:outline-ring"
      >
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LOCALE_NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
