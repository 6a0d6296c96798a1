"use client";

import { Loader2 } from "lucide-react";
import { useLinkStatus } from "next/link";
import type { ReactNode } from "react";

/**
 * Inside a <Link>: its icon, swapped for a spinner while the navigation it started is loading
 * (filter and page changes keep the old list on screen until the new one is there).
 */
export function LinkPending({ children }: { children?: ReactNode }) {
  const { pending } = useLinkStatus();
  return pending ? <Loader2 className="animate-spin" aria-hidden /> : children;
}
