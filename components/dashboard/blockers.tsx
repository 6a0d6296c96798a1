import Link from "next/link";
import { buttonVariants } from "@/components/ui/button";

/** What stops the merchant from creating something (a payment, a payment link), each with the page that fixes it. */
export function Blockers({ label, items }: { label: string; items: { key: string; text: string; href: string; link: string }[] }) {
  if (items.length === 0) return null;
  return (
    <ul className="mb-6 grid gap-2" aria-label={label} data-testid="blockers">
      {items.map((b) => (
        <li
          key={b.key}
          className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-warning/40 bg-warning/10 px-4 py-3 text-sm"
        >
          <span>{b.text}</span>
          <Link href={b.href} className={buttonVariants({ variant: "outline", size: "sm" })}>
            {b.link}
          </Link>
        </li>
      ))}
    </ul>
  );
}
