"use client";

import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";

export function CopyButton({
  value,
  label = "Copy",
  className,
  size = "icon-sm",
}: {
  value: string;
  label?: string;
  className?: string;
  size?: "icon-sm" | "sm";
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      toast.error("Copy failed: select the text and copy it by hand.");
    }
  };
  return (
    <Button
      type="button"
      variant="ghost"
      size={size}
      onClick={copy}
      aria-label={size === "sm" ? undefined : label}
      className={cn("text-muted-foreground", className)}
    >
      {copied ? <Check aria-hidden className="text-success" /> : <Copy aria-hidden />}
      {size === "sm" && (copied ? "Copied" : label)}
      <span aria-live="polite" className="sr-only">
        {copied ? "Copied" : ""}
      </span>
    </Button>
  );
}
