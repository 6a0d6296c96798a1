"use client";

import { Link2, Loader2 } from "lucide-react";
import { useState, useTransition } from "react";
import { TwoFactorCodeField } from "@/components/account/two-factor-code-field";
import { ShownOnce } from "@/components/dashboard/shown-once";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormError } from "@/components/ui/field";
import { issueClaimLinkAction } from "@/lib/web/dashboard/refunds/actions";
import { sentence } from "./sentence";

/**
 * "New link" on a refund the member created that waits for the payer's address: issues a new
 * claim link (the one sent before stops working) and shows it once, with copy; closing the dialog
 * forgets it. With two-factor on, a current code is asked for, as for creating the refund.
 */
export function ClaimLinkButton({ refundId, twoFactor, first = false }: { refundId: string; twoFactor: boolean; first?: boolean }) {
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState("");
  const [problem, setProblem] = useState<string>();
  const [link, setLink] = useState<string | null>(null);
  const [pending, start] = useTransition();

  const openChange = (next: boolean) => {
    if (pending) return;
    // Closed: the link is gone from the page (it is never shown again).
    setCode("");
    setProblem(undefined);
    setLink(null);
    setOpen(next);
  };
  const issue = () =>
    start(async () => {
      const result = await issueClaimLinkAction(refundId, twoFactor ? code : undefined);
      setCode("");
      if (!result.ok || !result.data.claimUrl) {
        setProblem(result.ok ? "No link was issued." : sentence(result.error));
        return;
      }
      // The page's update comes with the action's answer (revalidatePath).
      setLink(result.data.claimUrl);
    });

  return (
    <Dialog open={open} onOpenChange={openChange}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" className="shrink-0">
          <Link2 aria-hidden /> {first ? "Issue link" : "New link"}
          <span className="sr-only"> for this refund</span>
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{link ? "New claim link" : first ? "Issue a claim link?" : "Issue a new claim link?"}</DialogTitle>
          <DialogDescription>
            {link
              ? "Send it to the payer: they open it and give the address the refund goes to."
              : "Whoever holds the link chooses where this refund goes. The link you sent before stops working at once; the claim's deadline stays the same."}
          </DialogDescription>
        </DialogHeader>
        {link ? (
          <ShownOnce
            id={`claim-link-${refundId}`}
            label="Claim link"
            value={link}
            copyLabel="Copy link"
            note="Shown only now: copy it before you close this. Lost it? Issue a new one (this one then stops working)."
            testId="claim-link-shown"
          />
        ) : (
          <form
            className="grid gap-4"
            aria-label="Issue a claim link"
            onSubmit={(e) => {
              e.preventDefault();
              issue();
            }}
          >
            {twoFactor && <TwoFactorCodeField value={code} onChange={setCode} required />}
            <FormError>{problem}</FormError>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => openChange(false)} disabled={pending}>
                Back
              </Button>
              <Button type="submit" disabled={pending || (twoFactor && !code.trim())}>
                {pending && <Loader2 className="animate-spin" aria-hidden />}
                {pending ? "Issuing…" : "Issue link"}
              </Button>
            </DialogFooter>
          </form>
        )}
        {link && (
          <DialogFooter>
            <Button onClick={() => openChange(false)}>Done</Button>
          </DialogFooter>
        )}
      </DialogContent>
    </Dialog>
  );
}
