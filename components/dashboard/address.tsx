import { cn } from "@/components/ui/cn";
import { Tooltip } from "@/components/ui/tooltip";
import { CopyButton } from "./copy-button";

export function shorten(value: string, head = 6, tail = 4): string {
  return value.length <= head + tail + 1 ? value : `${value.slice(0, head)}…${value.slice(-tail)}`;
}

/** An address or hash: shortened, the full value on hover and for screen readers, a copy button. */
export function Address({
  value,
  href,
  className,
  copy = true,
}: {
  value: string;
  href?: string | null;
  className?: string;
  copy?: boolean;
}) {
  const text = (
    <span className="font-mono text-[0.8125rem]">
      <span aria-hidden>{shorten(value)}</span>
      <span className="sr-only">{value}</span>
    </span>
  );
  return (
    <span className={cn("inline-flex items-center gap-0.5 whitespace-nowrap", className)}>
      <Tooltip content={value}>
        {href ? (
          <a
            href={href}
            target="_blank"
            rel="noreferrer"
            className="rounded underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
          >
            {text}
          </a>
        ) : (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so that a keyboard user can open the tooltip with the whole address
          <span tabIndex={0} className="rounded focus-visible:outline-2 focus-visible:outline-ring">
            {text}
          </span>
        )}
      </Tooltip>
      {copy && <CopyButton value={value} label="Copy to clipboard" />}
    </span>
  );
}
