"use client";

import { Loader2, Undo2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { toast } from "sonner";
import { TwoFactorCodeField } from "@/components/account/two-factor-code-field";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { RadioChoice as Choice } from "@/components/ui/radio-choice";
import { newRequestId } from "@/components/ui/request-id";
import type { RefundView } from "@/lib/domain/refunds/refund-view";
import { refundPaymentAction } from "@/lib/web/dashboard/refunds/actions";
import { ADDRESS_WORDS, AMOUNT_WORDS } from "@/lib/web/dashboard/shared/refusal-words";
import { FiatAmountField, useFiatPreview } from "./fiat-refund";
import { RefundCreated } from "./refund-created";
import { sentence } from "./sentence";

type Destination = "payer" | "address";
type Basis = "tokens" | "fiat";

const FIELDS = ["amount", "fiatAmount", "toAddress", "code"];

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
  const [destination, setDestination] = useState<Destination>("payer");
  const [toAddress, setToAddress] = useState("");
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string>();
  const [created, setCreated] = useState<RefundView | null>(null);
  const [requestId, setRequestId] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const { preview, setPreview, retry, forget } = useFiatPreview(sessionId, token, open && basis === "fiat", fiatAmount);

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
      if (fiatBasis) forget(); // a preview still on its way must not show over the answer
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
          <RefundCreated created={created} onDone={() => setOpen(false)} />
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
                    forget();
                    setPreview({ state: value.trim() ? "loading" : "idle" });
                  }}
                  error={errors.fiatAmount ?? (preview.state === "error" && preview.onField ? preview.words : undefined)}
                  preview={preview}
                  retry={retry}
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

/** The field a refusal is about, by its reason, in the dialog's words (lib's messages are for API clients). */
function fieldRefusal(reason: string | undefined, typed: { amount: string; refundable: string }): { field: string; words: string } | null {
  if (reason === "refund-exceeds-refundable")
    return { field: "amount", words: `${typed.amount} is more than this payment can still refund (${typed.refundable}).` };
  if (reason && reason in AMOUNT_WORDS) return { field: "amount", words: AMOUNT_WORDS[reason as keyof typeof AMOUNT_WORDS] };
  if (reason && reason in ADDRESS_WORDS) return { field: "toAddress", words: ADDRESS_WORDS[reason as keyof typeof ADDRESS_WORDS] };
  return null;
}
