import { cn } from "@/components/ui/cn";

/** The BSC Pay mark (a yellow rhombus, the chain's shape) and wordmark. */
export function Logo({ className, withName = true }: { className?: string; withName?: boolean }) {
  return (
    <span className={cn("inline-flex items-center gap-2 font-semibold tracking-tight", className)}>
      <svg viewBox="0 0 32 32" className="size-7" aria-hidden>
        <rect x="6" y="6" width="20" height="20" rx="4" transform="rotate(45 16 16)" className="fill-brand" />
        <path d="M16 10.5 21.5 16 16 21.5 10.5 16Z" className="fill-brand-foreground" opacity="0.9" />
      </svg>
      {withName && <span>BSC Pay</span>}
    </span>
  );
}
