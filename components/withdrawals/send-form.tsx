"use client";

import { Loader2, Send } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition } from "react";
import { toast } from "sonner";
import { getAddress, isAddress } from "viem";
import { TwoFactorCodeField } from "@/components/account/two-factor-code-field";
import { groupDigits } from "@/components/dashboard/format";
import { type Option, OptionField } from "@/components/dashboard/option-field";
import { Button, buttonVariants } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { newRequestId } from "@/components/ui/request-id";
import { sendWithdrawalAction, withdrawalBalanceAction } from "@/lib/web/dashboard/withdrawals/actions";
import { approvalNote, heldBackNote, SEND_WORDS, type SendApproval } from "@/lib/web/dashboard/withdrawals/send-words";
import { BALANCE_UNKNOWN } from "@/lib/web/dashboard/withdrawals/withdrawal-words";

type Balance = {
  available: string | null;
  balance: string | null;
  reserved: string;
  awaitingApproval: string;
  symbol: string;
  decimals: number;
  bnb: string | null;
  wallet: string;
  approval: SendApproval;
};

/** Same rule as the API: any single case, or a valid EIP-55 checksum when mixed. */
function checkAddress(value: string): string | null {
  const v = value.trim();
  if (!/^0x[0-9a-fA-F]{40}$/.test(v)) return "Enter a 0x address of 40 hex characters.";
  const body = v.slice(2);
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase();
  if (mixed && !isAddress(v, { strict: true })) return "The checksum (upper and lower case letters) is wrong: check the address.";
  return null;
}

/** `twoFactor`: the account has two-factor sign-in on, so the confirmation asks for a current code. */
export function SendWithdrawalForm({ domains, tokens, twoFactor = false }: { domains: Option[]; tokens: Option[]; twoFactor?: boolean }) {
  const router = useRouter();
  const [domainId, setDomainId] = useState(domains[0]?.id ?? 0);
  const [tokenId, setTokenId] = useState(tokens[0]?.id ?? 0);
  const [amount, setAmount] = useState("");
  const [toAddress, setToAddress] = useState("");
  const [balance, setBalance] = useState<Balance | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const [requestId, setRequestId] = useState<string | null>(null);
  const [code, setCode] = useState("");
  const [pending, start] = useTransition();

  useEffect(() => setRequestId(newRequestId()), []);
  useEffect(() => {
    if (!domainId || !tokenId) return;
    let live = true;
    setBalance(null);
    withdrawalBalanceAction(domainId, tokenId)
      .then((result) => live && result.ok && setBalance(result.data))
      // The form works without the balance hint: the send itself checks the balance.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [domainId, tokenId]);

  const symbol = balance?.symbol ?? tokens.find((t) => t.id === tokenId)?.label.split(" ")[0] ?? "";
  // Whether the amount will wait for a second member (null until the balance, and with it the thresholds, is read).
  const waits = balance ? approvalNote(amount, balance.decimals, balance.symbol, balance.approval) : null;

  const review = () => {
    const next: Record<string, string> = {};
    if (!/^(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(amount.trim()) || /^0(\.0*)?$/.test(amount.trim()))
      next.amount = 'Enter an amount greater than 0, like "25" or "10.5".';
    const addressProblem = checkAddress(toAddress);
    if (addressProblem) next.toAddress = addressProblem;
    setErrors(next);
    setFormError(undefined);
    if (Object.keys(next).length === 0) setConfirming(true);
  };

  const send = () =>
    start(async () => {
      const result = await sendWithdrawalAction({
        domainId,
        tokenId,
        amount: amount.trim(),
        toAddress: toAddress.trim(),
        requestId,
        ...(twoFactor ? { code: code.trim() } : {}),
      });
      if (!result.ok && result.fieldErrors?.code) {
        // A wrong code: stay in the confirmation, nothing was sent.
        setErrors({ code: result.fieldErrors.code });
        return;
      }
      setConfirming(false);
      setCode("");
      if (!result.ok) {
        setErrors(result.fieldErrors ?? {});
        setFormError(result.error);
        toast.error("Withdrawal not sent", { description: result.error });
        return;
      }
      if (result.data.status === "awaiting_approval")
        toast.success(`${result.data.amount} ${result.data.token} awaits approval`, {
          description: "It is above your approval threshold: a second member approves it on the Approvals page, then it is sent.",
        });
      else
        toast.success(`Sending ${result.data.amount} ${result.data.token}`, {
          description: "It shows completed once the chain confirms it.",
        });
      setAmount("");
      setToAddress("");
      setRequestId(newRequestId());
      router.refresh();
    });

  if (domains.length === 0 || tokens.length === 0) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>Send a withdrawal</CardTitle>
          <CardDescription>You need a domain (its wallet pays) and a registered token first.</CardDescription>
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

  return (
    <Card>
      <CardHeader>
        <CardTitle>Send a withdrawal</CardTitle>
        <CardDescription>From a domain&apos;s withdrawal wallet to any BSC address. The gas tank pays the BNB for gas.</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="grid gap-4 md:grid-cols-2"
          onSubmit={(event) => {
            event.preventDefault();
            review();
          }}
          noValidate
        >
          <div className="md:col-span-2">
            <FormError>{formError}</FormError>
          </div>
          <OptionField
            label="From domain"
            error={errors.domainId}
            options={domains}
            value={domainId}
            onChange={(e) => setDomainId(Number(e.target.value))}
          />
          <OptionField
            label="Token"
            error={errors.tokenId}
            options={tokens}
            value={tokenId}
            onChange={(e) => setTokenId(Number(e.target.value))}
          />
          <Field
            label="Amount"
            error={errors.amount}
            hint={
              balance ? (
                <span data-testid="available">
                  Available: {balance.available === null ? BALANCE_UNKNOWN : `${groupDigits(balance.available)} ${balance.symbol}`}
                  {heldBackNote(groupDigits(balance.reserved), groupDigits(balance.awaitingApproval), balance.symbol)}
                </span>
              ) : (
                "Reading the wallet's balance…"
              )
            }
          >
            {(control) => (
              <div className="flex gap-2">
                <Input
                  {...control}
                  name="amount"
                  inputMode="decimal"
                  autoComplete="off"
                  placeholder="e.g. 10.5"
                  value={amount}
                  onChange={(e) => setAmount(e.target.value)}
                />
                <Button
                  type="button"
                  variant="outline"
                  disabled={!balance?.available || balance.available === "0"}
                  onClick={() => setAmount(balance?.available ?? "")}
                >
                  Max
                </Button>
              </div>
            )}
          </Field>
          <Field
            label="Recipient address"
            error={errors.toAddress}
            hint="A BSC address outside this gateway. Mixed case must carry a valid checksum."
          >
            {(control) => (
              <Input
                {...control}
                name="toAddress"
                autoComplete="off"
                spellCheck={false}
                placeholder="0x…"
                className="font-mono"
                value={toAddress}
                onChange={(e) => setToAddress(e.target.value)}
                onBlur={() => toAddress && setErrors((prev) => ({ ...prev, toAddress: checkAddress(toAddress) ?? "" }))}
              />
            )}
          </Field>
          <div className="md:col-span-2">
            <Button type="submit" disabled={pending || !requestId || !amount.trim() || !toAddress.trim()}>
              <Send aria-hidden /> Review withdrawal
            </Button>
          </div>
        </form>
        <Dialog open={confirming} onOpenChange={(open) => !pending && setConfirming(open)}>
          <DialogContent>
            <DialogHeader>
              <DialogTitle>Send this withdrawal?</DialogTitle>
              <DialogDescription data-testid="send-consequence">
                {waits ? (
                  <>
                    <span className="font-medium text-foreground">{waits}.</span> {SEND_WORDS.waits}
                  </>
                ) : (
                  SEND_WORDS.cannotBeUndone
                )}
              </DialogDescription>
            </DialogHeader>
            <dl className="grid gap-2 rounded-lg border p-4 text-sm">
              <div className="flex justify-between gap-4">
                <dt className="text-muted-foreground">Amount</dt>
                <dd className="font-medium tabular-nums">
                  {groupDigits(amount.trim() || "0")} {symbol}
                </dd>
              </div>
              <div className="flex justify-between gap-4">
                <dt className="text-muted-foreground">From</dt>
                <dd>{domains.find((d) => d.id === domainId)?.label}</dd>
              </div>
              <div className="grid gap-1">
                <dt className="text-muted-foreground">To</dt>
                <dd className="font-mono text-xs break-all">
                  {isAddress(toAddress.trim(), { strict: false }) ? getAddress(toAddress.trim().toLowerCase()) : toAddress}
                </dd>
              </div>
            </dl>
            {twoFactor && <TwoFactorCodeField value={code} onChange={setCode} error={errors.code} />}
            <DialogFooter>
              <Button variant="outline" onClick={() => setConfirming(false)} disabled={pending}>
                Back
              </Button>
              <Button onClick={send} disabled={pending || (twoFactor && !code.trim())}>
                {pending && <Loader2 className="animate-spin" aria-hidden />}
                {pending ? "Sending…" : waits ? SEND_WORDS.askForApproval : SEND_WORDS.send}
              </Button>
            </DialogFooter>
          </DialogContent>
        </Dialog>
      </CardContent>
    </Card>
  );
}
