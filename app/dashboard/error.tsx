"use client";

import { ErrorState } from "@/components/dashboard/error-state";

export default function DashboardError({ reset }: { error: Error; reset: () => void }) {
  return <ErrorState retry={reset} />;
}
