"use client";

import { CheckCircle2, ExternalLink, List, Plus } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { CopyButton } from "@/components/dashboard/copy-button";
import { Button, buttonVariants } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { PaymentLinkView } from "@/lib/domain/payment-links/link-view";
import { LinkForm } from "./link-form";
import { linkPrice } from "./links-table";

/** The New link form, then the link to copy. */
export function NewLink(props: Omit<Parameters<typeof LinkForm>[0], "link" | "onSaved">) {
  const [created, setCreated] = useState<PaymentLinkView | null>(null);
  const [round, setRound] = useState(0);

  if (created) {
    return (
      <div className="grid gap-4" data-testid="link-created">
        <p className="flex items-center gap-2 font-medium" role="status">
          <CheckCircle2 className="size-5 shrink-0 text-success" aria-hidden /> Link “{created.title}” created: {linkPrice(created)}
        </p>
        <div className="grid gap-1.5">
          <label htmlFor="link-url" className="text-sm font-medium">
            Payment link: share it, or put it behind a button on your site
          </label>
          <div className="flex gap-2">
            <Input id="link-url" readOnly value={created.url} className="font-mono text-xs" onFocus={(e) => e.target.select()} />
            <CopyButton value={created.url} label="Copy link" size="sm" className="shrink-0 border" />
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link href="/dashboard/links" className={buttonVariants()}>
            <List aria-hidden /> All links
          </Link>
          <a href={created.url} target="_blank" rel="noreferrer" className={buttonVariants({ variant: "outline" })}>
            Open its page <ExternalLink aria-hidden />
          </a>
          <Button
            variant="ghost"
            onClick={() => {
              setCreated(null);
              setRound((n) => n + 1);
            }}
          >
            <Plus aria-hidden /> Create another
          </Button>
        </div>
      </div>
    );
  }
  return <LinkForm key={round} {...props} onSaved={setCreated} />;
}
