"use client";

import { AlertTriangle, RotateCw } from "lucide-react";
import { Button } from "@/components/ui/button";

export function ErrorState({
  title = "This page could not load",
  message,
  retry,
}: {
  title?: string;
  message?: string;
  retry: () => void;
}) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 rounded-xl border bg-background px-6 py-12 text-center">
      <span className="flex size-11 items-center justify-center rounded-full bg-destructive/10">
        <AlertTriangle className="size-5 text-destructive" aria-hidden />
      </span>
      <h2 className="text-base font-semibold">{title}</h2>
      <p className="max-w-sm text-sm text-muted-foreground">
        {message ?? "Something went wrong while loading it. The problem may be temporary."}
      </p>
      <Button variant="outline" onClick={retry}>
        <RotateCw aria-hidden /> Try again
      </Button>
    </div>
  );
}
