"use client";

import { ErrorState } from "@/components/dashboard/error-state";

export default function AuditError({ reset }: { error: Error; reset: () => void }) {
  return <ErrorState title="The audit log could not load" retry={reset} />;
}
