"use client";

import { Loader2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { updateDomainAction } from "@/lib/web/dashboard/domains/actions";

/** Basis points as a percentage for the hint: 50 → "0.5 %". */
const percent = (bps: number) => `${(bps / 100).toLocaleString("en", { maximumFractionDigits: 2 })} %`;

/**
 * A domain's fiat thresholds (docs/design.md §23): how short a fiat-priced payment may be and still
 * count, and how far a late transfer's block rate may move from the locked quote. Empty = the
 * gateway's default (shown). No two-factor code: neither redirects money or events.
 */
export function FiatThresholds({
  domainId,
  underpayBps,
  rateToleranceBps,
  underpayInForce,
  rateToleranceInForce,
}: {
  domainId: number;
  underpayBps: number | null;
  rateToleranceBps: number | null;
  underpayInForce: number;
  rateToleranceInForce: number;
}) {
  const router = useRouter();
  const [underpay, setUnderpay] = useState(underpayBps?.toString() ?? "");
  const [tolerance, setTolerance] = useState(rateToleranceBps?.toString() ?? "");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, start] = useTransition();
  const underpayDirty = underpay.trim() !== (underpayBps?.toString() ?? "");
  const toleranceDirty = tolerance.trim() !== (rateToleranceBps?.toString() ?? "");
  const dirty = underpayDirty || toleranceDirty;
  const save = () =>
    start(async () => {
      const result = await updateDomainAction(domainId, {
        ...(underpayDirty ? { fiatUnderpayBps: underpay } : {}),
        ...(toleranceDirty ? { fiatRateToleranceBps: tolerance } : {}),
      });
      if (!result.ok) {
        setErrors(result.fieldErrors ?? { form: result.error });
        toast.error("Not saved", { description: result.error });
        return;
      }
      setErrors({});
      toast.success("Fiat thresholds saved");
      router.refresh();
    });
  const defaultHint = (bps: number | null, inForce: number) =>
    bps === null
      ? `Empty: the gateway's default, now ${inForce} bps (${percent(inForce)}).`
      : `${percent(inForce)}. Empty: the gateway's default.`;
  return (
    <form
      className="grid gap-4"
      // Our own field errors, not the browser's bubbles: the server's words, tied to the field.
      noValidate
      aria-labelledby={`fiat-thresholds-${domainId}`}
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <div className="grid gap-1">
        <h3 id={`fiat-thresholds-${domainId}`} className="text-sm font-medium">
          Payments priced in fiat
        </h3>
        <p className="text-xs text-muted-foreground">Whole basis points, 0 to 1000 (100 bps = 1 %).</p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Accept short by less than (bps)"
          error={errors.fiatUnderpayBps ?? errors.form}
          hint={`A payment this much under the price still completes; the checkout page tells the payer. ${defaultHint(underpayBps, underpayInForce)}`}
        >
          {(control) => (
            <Input
              {...control}
              name="fiatUnderpayBps"
              type="number"
              inputMode="numeric"
              min={0}
              max={1000}
              step={1}
              placeholder={`Default: ${underpayInForce}`}
              value={underpay}
              onChange={(e) => setUnderpay(e.target.value)}
            />
          )}
        </Field>
        <Field
          label="Late payment rate tolerance (bps)"
          error={errors.fiatRateToleranceBps}
          hint={`A transfer after the quote expired counts at its block's rate if that moved at most this much. ${defaultHint(rateToleranceBps, rateToleranceInForce)}`}
        >
          {(control) => (
            <Input
              {...control}
              name="fiatRateToleranceBps"
              type="number"
              inputMode="numeric"
              min={0}
              max={1000}
              step={1}
              placeholder={`Default: ${rateToleranceInForce}`}
              value={tolerance}
              onChange={(e) => setTolerance(e.target.value)}
            />
          )}
        </Field>
      </div>
      <div>
        <Button type="submit" variant="outline" disabled={pending || !dirty}>
          {pending && <Loader2 className="animate-spin" aria-hidden />} Save thresholds
        </Button>
      </div>
    </form>
  );
}
