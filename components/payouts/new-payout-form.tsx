"use client";

import { FileUp, Loader2, Send, Trash2 } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition } from "react";
import { toast } from "sonner";
import { TwoFactorCodeField } from "@/components/account/two-factor-code-field";
import { groupDigits } from "@/components/dashboard/format";
import { type Option, OptionField } from "@/components/dashboard/option-field";
import { Button, buttonVariants } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field, FormError } from "@/components/ui/field";
import { newRequestId } from "@/components/ui/request-id";
import type { PayoutReview } from "@/lib/domain/payouts/dashboard-payouts";
import { reviewPayoutsAction, sendPayoutsAction } from "@/lib/web/dashboard/payouts/actions";
import { PayoutReviewTables } from "./payout-review";

const EXAMPLE = "e.g.\naddress,amount,reference\n0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed,25,invoice-1001";

/**
 * A new batch from a CSV file (or pasted text): reviewed on the server with the API's rules, bad
 * rows shown by line; nothing is recorded until "Send". `twoFactor`: the member has two-factor
 * sign-in on, so the send asks for a current code.
 */
export function NewPayoutForm({ domains, tokens, twoFactor = false }: { domains: Option[]; tokens: Option[]; twoFactor?: boolean }) {
  const router = useRouter();
  const [domainId, setDomainId] = useState(domains[0]?.id ?? 0);
  const [tokenId, setTokenId] = useState(tokens[0]?.id ?? 0);
  const [csv, setCsv] = useState("");
  const [skipLines, setSkipLines] = useState<number[]>([]);
  const [review, setReview] = useState<PayoutReview | null>(null);
  const [formError, setFormError] = useState<string>();
  const [codeError, setCodeError] = useState<string>();
  const [code, setCode] = useState("");
  const [requestId, setRequestId] = useState<string | null>(null);
  const [pending, start] = useTransition();

  useEffect(() => setRequestId(newRequestId()), []);

  /** Any change to what would be sent voids the review (and names a new submission). */
  const edited = () => {
    setReview(null);
    setSkipLines([]);
    setFormError(undefined);
    setRequestId(newRequestId());
  };

  const runReview = (skip: number[]) =>
    start(async () => {
      setFormError(undefined);
      const result = await reviewPayoutsAction({ domainId, tokenId, csv, skipLines: skip });
      if (!result.ok) {
        setReview(null);
        setFormError(result.error);
        return;
      }
      setSkipLines(skip);
      setReview(result.data);
    });

  const send = () =>
    start(async () => {
      setCodeError(undefined);
      const result = await sendPayoutsAction({
        domainId,
        tokenId,
        csv,
        skipLines,
        requestId,
        ...(twoFactor ? { code: code.trim() } : {}),
      });
      if (!result.ok) {
        if (result.fieldErrors?.code) setCodeError(result.fieldErrors.code);
        else setFormError(result.error);
        toast.error("Payouts not sent", { description: result.error });
        return;
      }
      if (result.data.status === "awaiting_approval")
        toast.success(`${result.data.itemCount} payouts wait for approval`, {
          description: "Above your account's approval threshold: another member approves them with a two-factor code.",
        });
      else
        toast.success(`Sending ${result.data.itemCount} payouts of ${result.data.token}`, {
          description: "Each shows paid once the chain confirms it.",
        });
      router.push(`/dashboard/payouts/${result.data.batchId}`);
    });

  if (domains.length === 0 || tokens.length === 0) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>New payout</CardTitle>
          <CardDescription>You need a domain (its withdrawal wallet pays) and a registered BEP-20 token first.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-2">
          {domains.length === 0 && (
            <Link href="/dashboard/domains" className={buttonVariants({ variant: "outline", size: "sm" })}>
              Add a domain
            </Link>
          )}
          {tokens.length === 0 && (
            <Link href="/dashboard/tokens" className={buttonVariants({ variant: "outline", size: "sm" })}>
              Register a token
            </Link>
          )}
        </CardContent>
      </Card>
    );
  }

  const badCount = review?.bad.length ?? 0;
  return (
    <Card data-testid="new-payout">
      <CardHeader>
        <CardTitle>New payout</CardTitle>
        <CardDescription>
          Pay up to 500 recipients at once from a domain&apos;s withdrawal wallet: a CSV with one recipient a line,{" "}
          <code className="rounded bg-muted px-1 font-mono text-xs">address,amount,reference</code> (amounts in token units; the header line
          and the reference are optional).
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <FormError>{formError}</FormError>
        <div className="grid gap-4 md:grid-cols-2">
          <OptionField
            label="From domain"
            options={domains}
            value={domainId}
            onChange={(e) => {
              setDomainId(Number(e.target.value));
              edited();
            }}
          />
          <OptionField
            label="Token"
            options={tokens}
            value={tokenId}
            onChange={(e) => {
              setTokenId(Number(e.target.value));
              edited();
            }}
          />
        </div>
        <Field label="Recipients (CSV)" hint="Upload a .csv file or paste its lines here.">
          {(control) => (
            <textarea
              {...control}
              name="csv"
              rows={6}
              wrap="off"
              spellCheck={false}
              placeholder={EXAMPLE}
              value={csv}
              onChange={(e) => {
                setCsv(e.target.value);
                edited();
              }}
              className="w-full min-w-0 rounded-md border border-input bg-transparent px-3 py-2 font-mono text-xs shadow-xs placeholder:text-muted-foreground/60 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring"
            />
          )}
        </Field>
        <div className="flex flex-wrap items-center gap-2">
          <label
            className={`${buttonVariants({ variant: "outline", size: "sm" })} cursor-pointer has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-1 has-[:focus-visible]:outline-ring`}
          >
            <FileUp aria-hidden /> Upload CSV
            <input
              type="file"
              accept=".csv,text/csv,text/plain"
              className="sr-only"
              data-testid="csv-file"
              onChange={async (e) => {
                const file = e.target.files?.[0];
                if (!file) return;
                setCsv(await file.text());
                edited();
                e.target.value = "";
              }}
            />
          </label>
          <Button type="button" size="sm" disabled={pending || !csv.trim()} onClick={() => runReview([])}>
            {pending && !review ? <Loader2 className="animate-spin" aria-hidden /> : null}
            Review payouts
          </Button>
        </div>

        {review && (
          <div className="grid gap-4 border-t pt-4" data-testid="payout-review">
            <PayoutReviewTables review={review} />
            {twoFactor && badCount === 0 && review.count > 0 && <TwoFactorCodeField value={code} onChange={setCode} error={codeError} />}
            <div className="flex flex-wrap gap-2">
              {badCount > 0 ? (
                <Button
                  type="button"
                  variant="outline"
                  disabled={pending || review.count === 0}
                  onClick={() => runReview([...skipLines, ...review.bad.map((b) => b.line)])}
                >
                  <Trash2 aria-hidden /> Drop the {badCount === 1 ? "bad row" : `${badCount} bad rows`} and continue
                </Button>
              ) : (
                <Button type="button" disabled={pending || !requestId || (twoFactor && !code.trim())} onClick={send}>
                  {pending ? <Loader2 className="animate-spin" aria-hidden /> : <Send aria-hidden />}
                  {pending ? "Sending…" : `Send ${review.count === 1 ? "1 payout" : `${review.count} payouts`}`}
                </Button>
              )}
              <Button type="button" variant="ghost" disabled={pending} onClick={edited}>
                Edit the file
              </Button>
            </div>
            {badCount === 0 && (
              <p className="text-xs text-muted-foreground">
                {groupDigits(review.total)} {review.token} leave the domain&apos;s wallet. Blockchain transfers cannot be undone.
              </p>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
