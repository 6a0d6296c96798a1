"use client";

import { AlertTriangle, CheckCircle2, Loader2, RefreshCw, Undo2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState, useTransition } from "react";
import { toast } from "sonner";
import { TwoFactorCodeField } from "@/components/account/two-factor-code-field";
import { ShownOnce } from "@/components/dashboard/shown-once";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { RadioChoice as Choice } from "@/components/ui/radio-choice";
import { newRequestId } from "@/components/ui/request-id";
import type { RefundPreview } from "@/lib/domain/refunds/dashboard-refunds";
import type { RefundView } from "@/lib/domain/refunds/refund-view";
import { previewRefundAction, refundPaymentAction } from "@/lib/web/dashboard/refunds/actions";
import { ADDRESS_WORDS, AMOUNT_WORDS } from "@/lib/web/dashboard/shared/refusal-words";

type Destination = "payer" | "address";
type Basis = "tokens" | "fiat";

const FIELDS = ["amount", "fiatAmount", "toAddress", "code"];

/** The preview of a fiat refund: its tokens at today's rate, or why there is none. */
type Preview =
  | { state: "idle" }
  | { state: "loading" }
  | { state: "ready"; preview: RefundPreview }
  | { state: "error"; words: string; onField: boolean };

/** Why a fiat refund cannot be priced now (`refund-rate-unavailable`'s detail), in the dialog's words. */
const RATE_WORDS: Record<string, string> = {
  "feed-stale": "its price feed has not been updated recently",
  depegged: "it is more than 3 % away from its peg",
  "feed-not-configured": "no price feed is set for it",
};

/** What the merchant does next, by the new refund's status. */
const TOAST_NEXT: Partial<Record<RefundView["status"], string>> = {
  awaiting_address: "Send the claim link to the payer.",
  awaiting_funds: "The wallet cannot pay it yet: it is sent by itself once it can (the payment's page says why).",
  awaiting_approval: "It is above your approval threshold: a second member approves it on the Approvals page first.",
};

/**
 * "Refund": how much (the lib's default prefilled: what was paid beyond the price; nothing when
 * there is no such part — the price goes back only when the merchant types it), and where — a claim link the payer opens to
 * give an address (the default), or an address the merchant has. A new request id per dialog
 * makes a double click one refund; with two-factor on, a current code is asked for.
 */
export function RefundDialog({
  sessionId,
  token,
  refundable,
  byDefault,
  fiat,
  twoFactor,
}: {
  sessionId: string;
  token: string;
  refundable: string;
  /** null: nothing was paid beyond the price (or it went back already); the merchant types the amount. */
  byDefault: string | null;
  /** A fiat-priced payment: its price (the fiat basis's default). Then the dialog offers tokens or fiat at today's rate. */
  fiat?: { currency: string; price: string };
  twoFactor: boolean;
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState(byDefault ?? "");
  const [basis, setBasis] = useState<Basis>("tokens");
  const [fiatAmount, setFiatAmount] = useState(fiat?.price ?? "");
  const [preview, setPreview] = useState<Preview>({ state: "idle" });
  const asked = useRef(0);
  const [destination, setDestination] = useState<Destination>("payer");
  const [toAddress, setToAddress] = useState("");
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string>();
  const [created, setCreated] = useState<RefundView | null>(null);
  const [requestId, setRequestId] = useState<string | null>(null);
  const [pending, start] = useTransition();

  // A fresh form each time it opens (the amount left to refund may have changed since); never
  // while open: a refresh of the page (a new default) must not wipe what the merchant sees.
  const openChange = (next: boolean) => {
    if (pending) return;
    if (next) {
      setRequestId(newRequestId());
      setAmount(byDefault ?? "");
      setBasis("tokens");
      setFiatAmount(fiat?.price ?? "");
      setPreview({ state: "idle" });
      setDestination("payer");
      setToAddress("");
      setCode("");
      setErrors({});
      setProblem(undefined);
      setCreated(null);
    }
    setOpen(next);
  };

  // Today's tokens for the fiat amount, asked again (after a pause in typing) whenever it changes; only the latest answer counts.
  const loadPreview = useCallback(
    async (value: string) => {
      const mine = ++asked.current;
      if (!value.trim()) return setPreview({ state: "idle" });
      setPreview({ state: "loading" });
      const result = await previewRefundAction({ sessionId, fiatAmount: value.trim() });
      if (mine !== asked.current) return;
      if (result.ok) return setPreview({ state: "ready", preview: result.data });
      setPreview(previewRefusal(result, token));
    },
    [sessionId, token],
  );
  useEffect(() => {
    if (!open || basis !== "fiat") return;
    const timer = setTimeout(() => void loadPreview(fiatAmount), 300);
    return () => clearTimeout(timer);
  }, [open, basis, fiatAmount, loadPreview]);

  const fiatBasis = fiat !== undefined && basis === "fiat";
  const missing =
    (fiatBasis ? preview.state !== "ready" : !amount.trim()) ||
    (destination === "address" && !toAddress.trim()) ||
    (twoFactor && !code.trim());

  const submit = () =>
    start(async () => {
      const result = await refundPaymentAction({
        sessionId,
        requestId,
        ...(fiatBasis ? { basis: "fiat", fiatAmount: fiatAmount.trim() } : { amount: amount.trim() }),
        ...(destination === "address" ? { toAddress: toAddress.trim() } : {}),
        ...(twoFactor ? { code: code.trim() } : {}),
      });
      if (!result.ok) {
        const onField = fiatBasis ? null : fieldRefusal(result.reason, { amount: amount.trim(), refundable });
        const fields = result.fieldErrors ?? (onField ? { [onField.field]: onField.words } : {});
        const shown = Object.fromEntries(Object.entries(fields).filter(([field]) => FIELDS.includes(field)));
        setErrors(shown);
        setProblem(Object.keys(shown).length ? undefined : sentence(result.error));
        return;
      }
      setCreated(result.data);
      const made = result.data;
      if (fiatBasis) asked.current++; // a preview still on its way must not show over the answer
      toast.success(made.status === "sending" ? `Sending ${made.amount} ${made.token}` : `Refund of ${made.amount} ${made.token} created`, {
        description: TOAST_NEXT[made.status] ?? "It shows Refunded once mined.",
      });
      router.refresh();
    });

  const clear = (field: string) => setErrors(({ [field]: _, ...rest }) => rest);

  return (
    <Dialog open={open} onOpenChange={openChange}>
      <DialogTrigger asChild>
        <Button variant="outline">
          <Undo2 aria-hidden /> Refund
        </Button>
      </DialogTrigger>
      <DialogContent>
        {created ? (
          <>
            <DialogHeader>
              <DialogTitle className="flex items-center gap-2">
                <CheckCircle2 className="size-5 text-success" aria-hidden /> Refund created
              </DialogTitle>
              <DialogDescription className="[overflow-wrap:anywhere]">
                {created.status === "awaiting_address"
                  ? `${created.amount} ${created.token} wait for the payer: send them this link, where they give their address.`
                  : created.status === "awaiting_approval"
                    ? `${created.amount} ${created.token} wait for a second member's approval (the Approvals page); nothing is claimable or sent before.`
                    : created.status === "awaiting_funds"
                      ? `${created.amount} ${created.token} will go to ${created.toAddress} as soon as this payment's domain wallet can pay. ${sentence(created.reason ?? "")}.`
                      : `${created.amount} ${created.token} are on their way to ${created.toAddress}.`}
                {created.basis === "fiat" &&
                  ` That is ${created.fiatAmount} ${created.currency} at ${created.rate} ${created.currency} per ${created.token}.`}
              </DialogDescription>
            </DialogHeader>
            {created.status === "awaiting_address" && created.claimUrl && (
              <ShownOnce
                id="new-claim-link"
                label="Claim link"
                value={created.claimUrl}
                copyLabel="Copy link"
                note="Shown only now: copy it before you close this. Lost it? Issue a new link from this refund on the payment's page (this one then stops working)."
                testId="refund-created"
              />
            )}
            {created.status === "awaiting_address" && !created.claimUrl && (
              // The same form sent again (its first answer was lost): the link was in that answer only.
              <p className="text-sm text-muted-foreground" data-testid="refund-created-again">
                This refund was created by your earlier attempt, and its link was shown only then. Issue a new link from the refund on the
                payment&apos;s page.
              </p>
            )}
            <DialogFooter>
              <Button onClick={() => setOpen(false)}>Done</Button>
            </DialogFooter>
          </>
        ) : (
          <form
            className="grid gap-4"
            aria-label="Refund"
            onSubmit={(e) => {
              e.preventDefault();
              if (!missing) submit();
            }}
          >
            <DialogHeader>
              <DialogTitle>Refund this payment</DialogTitle>
              <DialogDescription>Sent from this payment&apos;s domain wallet. Blockchain transfers cannot be undone.</DialogDescription>
            </DialogHeader>
            <fieldset disabled={pending} className="grid gap-4">
              {fiat && (
                <fieldset className="grid gap-2">
                  <legend className="mb-1.5 text-sm font-medium">What goes back</legend>
                  <Choice
                    name="basis"
                    value="tokens"
                    checked={basis === "tokens"}
                    onChange={() => setBasis("tokens")}
                    label={`The tokens paid (${token})`}
                    hint={`Up to ${refundable} ${token}, whatever ${token} is worth today.`}
                  />
                  <Choice
                    name="basis"
                    value="fiat"
                    checked={basis === "fiat"}
                    onChange={() => {
                      setBasis("fiat");
                      setPreview({ state: "loading" });
                    }}
                    label={`An amount in ${fiat.currency} at today's rate`}
                    hint={`The payment's price was ${fiat.price} ${fiat.currency}; the ${token} it takes today come from the price feed.`}
                  />
                </fieldset>
              )}
              {fiatBasis ? (
                <FiatAmountField
                  currency={fiat.currency}
                  price={fiat.price}
                  value={fiatAmount}
                  onChange={(value) => {
                    setFiatAmount(value);
                    clear("fiatAmount");
                    // The shown tokens are for the old amount: none until the new one is priced.
                    asked.current++;
                    setPreview({ state: value.trim() ? "loading" : "idle" });
                  }}
                  error={errors.fiatAmount ?? (preview.state === "error" && preview.onField ? preview.words : undefined)}
                  preview={preview}
                  retry={() => void loadPreview(fiatAmount)}
                />
              ) : (
                <Field
                  label="Amount"
                  error={errors.amount}
                  hint={
                    byDefault === null
                      ? `Up to ${refundable} ${token}. Nothing was paid beyond the price: type the amount to give back of the price itself.`
                      : `Up to ${refundable} ${token}. Prefilled with what the payer sent beyond the price.`
                  }
                >
                  {(control) => (
                    <div className="flex items-center gap-2">
                      <Input
                        {...control}
                        name="amount"
                        inputMode="decimal"
                        autoComplete="off"
                        value={amount}
                        onChange={(e) => {
                          setAmount(e.target.value);
                          clear("amount");
                        }}
                        required
                      />
                      <span className="text-sm text-muted-foreground">{token}</span>
                    </div>
                  )}
                </Field>
              )}
              <fieldset className="grid gap-2">
                <legend className="mb-1.5 text-sm font-medium">Where it goes</legend>
                <Choice
                  name="destination"
                  value="payer"
                  checked={destination === "payer"}
                  onChange={() => setDestination("payer")}
                  label="Let the payer choose the address (send them a link)"
                  hint="You get a link to send; the refund goes out once they give an address."
                />
                <Choice
                  name="destination"
                  value="address"
                  checked={destination === "address"}
                  onChange={() => setDestination("address")}
                  label="Send to an address I have"
                  hint="Sent at once. Make sure it is the payer's own BSC address."
                />
              </fieldset>
              {destination === "address" && (
                <Field label="Payer's address" error={errors.toAddress}>
                  {(control) => (
                    <Input
                      {...control}
                      name="toAddress"
                      autoComplete="off"
                      spellCheck={false}
                      placeholder="0x…"
                      className="font-mono"
                      value={toAddress}
                      onChange={(e) => {
                        setToAddress(e.target.value);
                        clear("toAddress");
                      }}
                      required
                    />
                  )}
                </Field>
              )}
              {twoFactor && (
                <TwoFactorCodeField
                  value={code}
                  onChange={(value) => {
                    setCode(value);
                    clear("code");
                  }}
                  error={errors.code}
                  required
                />
              )}
            </fieldset>
            <FormError>{problem}</FormError>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setOpen(false)} disabled={pending}>
                Back
              </Button>
              <Button type="submit" disabled={pending || missing || !requestId}>
                {pending && <Loader2 className="animate-spin" aria-hidden />}
                {pending ? "Creating…" : destination === "payer" ? "Create refund link" : "Send refund"}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** The fiat amount of a fiat refund, and under it what it is in tokens today (a live region: read out as it changes). */
function FiatAmountField({
  currency,
  price,
  value,
  onChange,
  error,
  preview,
  retry,
}: {
  currency: string;
  price: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  preview: Preview;
  retry: () => void;
}) {
  return (
    <div className="grid gap-2">
      <Field
        label={`Amount in ${currency}`}
        error={error}
        hint={`Prefilled with the whole price (${price} ${currency}); type less for a part of it.`}
      >
        {(control) => (
          <div className="flex items-center gap-2">
            <Input
              {...control}
              name="fiatAmount"
              inputMode="decimal"
              autoComplete="off"
              value={value}
              onChange={(e) => onChange(e.target.value)}
              required
            />
            <span className="text-sm text-muted-foreground">{currency}</span>
          </div>
        )}
      </Field>
      <div
        aria-live="polite"
        className="min-h-10 rounded-md border bg-muted/40 p-3 text-sm [overflow-wrap:anywhere]"
        data-testid="refund-preview"
      >
        {preview.state === "loading" && (
          <span className="flex items-center gap-2 text-muted-foreground">
            <Loader2 className="size-4 animate-spin" aria-hidden /> Reading today&apos;s rate…
          </span>
        )}
        {preview.state === "idle" && <span className="text-muted-foreground">Type an amount to see what it is in tokens today.</span>}
        {preview.state === "ready" && (
          <div className="grid gap-1">
            <p>
              The payer gets{" "}
              <strong className="font-semibold">
                {preview.preview.amount} {preview.preview.token}
              </strong>{" "}
              for {preview.preview.fiatAmount} {preview.preview.currency}.
            </p>
            <p className="text-xs text-muted-foreground">
              At {preview.preview.rate} {preview.preview.currency} per {preview.preview.token} (rounded up in the payer&apos;s favour), read{" "}
              {new Date(preview.preview.ratedAt).toLocaleTimeString()}. At most {preview.preview.atMost} {preview.preview.currency} can go
              back now. The rate is read again when you confirm.
            </p>
          </div>
        )}
        {preview.state === "error" && !preview.onField && (
          <div className="grid gap-2">
            <p className="flex items-start gap-2 text-destructive" role="alert">
              <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden /> {preview.words}
            </p>
            <div>
              <Button type="button" variant="outline" size="sm" onClick={retry}>
                <RefreshCw aria-hidden /> Try again
              </Button>
            </div>
          </div>
        )}
        {preview.state === "error" && preview.onField && (
          <span className="text-muted-foreground">Fix the amount to see what it is in tokens.</span>
        )}
      </div>
    </div>
  );
}

/** A refused preview: on the amount field (a bad or too large amount), or in the preview box (no rate now). */
function previewRefusal(result: { error: string; reason?: string; fieldErrors?: Record<string, string> }, token: string): Preview {
  if (result.reason === "refund-rate-unavailable") {
    const why = Object.values(result.fieldErrors ?? {})[0] ?? "";
    const detail = Object.entries(RATE_WORDS).find(([key]) => why.toLowerCase().includes(key))?.[1] ?? "its price cannot be read right now";
    return {
      state: "error",
      onField: false,
      words: `No refund in fiat right now: ${token} has no usable rate (${detail}). Refund the tokens paid instead, or try again later.`,
    };
  }
  const onField = result.fieldErrors?.fiatAmount;
  if (result.reason && result.reason in AMOUNT_WORDS)
    return { state: "error", onField: true, words: AMOUNT_WORDS[result.reason as keyof typeof AMOUNT_WORDS] };
  if (onField) return { state: "error", onField: true, words: sentence(onField) };
  return { state: "error", onField: false, words: sentence(result.error) };
}

/** The field a refusal is about, by its reason, in the dialog's words (lib's messages are for API clients). */
function fieldRefusal(reason: string | undefined, typed: { amount: string; refundable: string }): { field: string; words: string } | null {
  if (reason === "refund-exceeds-refundable")
    return { field: "amount", words: `${typed.amount} is more than this payment can still refund (${typed.refundable}).` };
  if (reason && reason in AMOUNT_WORDS) return { field: "amount", words: AMOUNT_WORDS[reason as keyof typeof AMOUNT_WORDS] };
  if (reason && reason in ADDRESS_WORDS) return { field: "toAddress", words: ADDRESS_WORDS[reason as keyof typeof ADDRESS_WORDS] };
  return null;
}

function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
