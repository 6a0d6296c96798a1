"use client";

import { CheckCircle2, ExternalLink, Loader2, Plus } from "lucide-react";
import Link from "next/link";
import { useState, useTransition } from "react";
import { CopyButton } from "@/components/dashboard/copy-button";
import { type Option, OptionField } from "@/components/dashboard/option-field";
import { ReadableAmount } from "@/components/dashboard/price";
import { Button, buttonVariants } from "@/components/ui/button";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { RadioChoice } from "@/components/ui/radio-choice";
import { createPaymentAction } from "@/lib/web/dashboard/payments/actions";
import type { DashboardPayment } from "@/lib/web/dashboard/payments/create-payment";

/** The page that fixes a refusal the form cannot: the plan, or a domain. */
const FIXES: Record<string, { href: string; label: string }> = {
  NO_PACKAGE: { href: "/dashboard/plan", label: "Go to Plan" },
  DOMAIN_NOT_WHITELISTED: { href: "/dashboard/domains", label: "Go to Domains" },
};

const EMPTY = { amount: "", description: "", orderId: "" };

export function CreatePaymentForm({
  tokens,
  domains,
  currency,
  blocked,
}: {
  tokens: (Option & { symbol: string; decimals: number })[];
  domains: Option[];
  /** The account's currency: a price in it is paid in any of the merchant's tokens (docs/design.md §23). */
  currency: string;
  blocked: boolean;
}) {
  const [values, setValues] = useState({
    ...EMPTY,
    priceIn: "token" as "token" | "currency",
    tokenId: tokens[0] ? String(tokens[0].id) : "",
    domainId: domains[0] ? String(domains[0].id) : "",
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<{ message: string; fix?: { href: string; label: string } } | null>(null);
  const [created, setCreated] = useState<DashboardPayment | null>(null);
  const [pending, start] = useTransition();
  const set = (field: Exclude<keyof typeof values, "priceIn">) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
    setErrors(({ [field]: _, ...rest }) => rest);
  };
  const token = tokens.find((t) => String(t.id) === values.tokenId);
  const inToken = values.priceIn === "token";
  const missing = (inToken && !values.tokenId) || !values.amount.trim() || (domains.length > 1 && !values.domainId);
  const priceIn = (choice: "token" | "currency") => () => {
    setValues((v) => ({ ...v, priceIn: choice }));
    setErrors(({ amount: _, priceIn: __, tokenId: ___, ...rest }) => rest);
  };

  const submit = () =>
    start(async () => {
      const result = await createPaymentAction({
        ...values,
        tokenId: inToken ? values.tokenId : "",
        domainId: domains.length > 1 ? values.domainId : "",
      });
      if (!result.ok) {
        const fields = result.fieldErrors ?? {};
        setErrors(fields);
        const onField = Object.keys(fields).some((f) => f in values);
        setProblem(onField ? null : { message: result.error, fix: result.code ? FIXES[result.code] : undefined });
        return;
      }
      setErrors({});
      setProblem(null);
      setCreated(result.data);
    });

  if (created) {
    return (
      <div className="grid gap-4" data-testid="payment-created">
        <p className="flex items-center gap-2 font-medium" role="status">
          <CheckCircle2 className="size-5 text-success" aria-hidden /> Payment of{" "}
          {created.currency ? `${created.fiatAmount} ${created.currency}` : `${created.amount} ${created.token}`} created
        </p>
        {created.currency && (
          <p className="-mt-2 text-sm text-muted-foreground">
            Asked first as <ReadableAmount value={created.amount} symbol={created.token} />; your customer may pay in any of your tokens, at
            the rates locked now.
          </p>
        )}
        <div className="grid gap-1.5">
          <label htmlFor="checkout-link" className="text-sm font-medium">
            Checkout link: send it to your customer
          </label>
          <div className="flex gap-2">
            <Input
              id="checkout-link"
              readOnly
              value={created.checkoutUrl}
              className="font-mono text-xs"
              onFocus={(e) => e.target.select()}
            />
            <CopyButton value={created.checkoutUrl} label="Copy link" size="sm" className="shrink-0 border" />
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link href={`/dashboard/payments/${created.sessionId}`} className={buttonVariants()}>
            Open the payment
          </Link>
          <a href={created.checkoutUrl} target="_blank" rel="noreferrer" className={buttonVariants({ variant: "outline" })}>
            Checkout page <ExternalLink aria-hidden />
          </a>
          <Button
            variant="ghost"
            onClick={() => {
              setCreated(null);
              setValues((v) => ({ ...v, ...EMPTY }));
            }}
          >
            <Plus aria-hidden /> Create another
          </Button>
        </div>
      </div>
    );
  }

  return (
    <form
      className="grid gap-4"
      aria-label="New payment"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <fieldset disabled={blocked || pending} className="grid gap-4 sm:grid-cols-2">
        <fieldset className="grid gap-2 sm:col-span-2" aria-describedby={errors.priceIn ? "price-in-error" : undefined}>
          <legend className="mb-1.5 text-sm font-medium">Price in</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            <RadioChoice
              name="priceIn"
              value="token"
              checked={inToken}
              onChange={priceIn("token")}
              label="A token"
              hint="An exact amount of one of your tokens."
            />
            <RadioChoice
              name="priceIn"
              value="currency"
              checked={!inToken}
              onChange={priceIn("currency")}
              label={`${currency}, your account's currency`}
              hint="Paid in any of your tokens, at the rate when it is created."
            />
          </div>
          {errors.priceIn && (
            <p id="price-in-error" className="text-xs font-medium text-destructive">
              {errors.priceIn}
            </p>
          )}
        </fieldset>
        {inToken && (
          <OptionField
            label="Token"
            error={errors.tokenId}
            options={tokens}
            empty="No token registered"
            name="tokenId"
            value={values.tokenId}
            onChange={set("tokenId")}
            required
          />
        )}
        <Field
          label={inToken ? "Amount" : `Amount in ${currency}`}
          error={errors.amount}
          hint={
            !inToken
              ? `In ${currency}, e.g. 25.00.`
              : token
                ? `In ${token.symbol}, e.g. 10.5 (up to ${token.decimals} decimals).`
                : undefined
          }
        >
          {(control) => (
            <Input
              {...control}
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              placeholder={inToken ? "10.5" : "25.00"}
              value={values.amount}
              onChange={set("amount")}
              required
            />
          )}
        </Field>
        <Field
          label="Description (optional)"
          error={errors.description}
          hint="Shown to your customer on the checkout page."
          className="sm:col-span-2"
        >
          {(control) => (
            <Input
              {...control}
              name="description"
              maxLength={500}
              placeholder="Invoice 2026-014: website design"
              value={values.description}
              onChange={set("description")}
            />
          )}
        </Field>
        <Field label="Order reference (optional)" error={errors.orderId} hint="Your own reference: searchable, and sent in webhooks.">
          {(control) => (
            <Input
              {...control}
              name="orderId"
              maxLength={100}
              autoComplete="off"
              placeholder="INV-2026-014"
              value={values.orderId}
              onChange={set("orderId")}
            />
          )}
        </Field>
        {domains.length > 1 && (
          <OptionField
            label="Domain"
            error={errors.domainId}
            hint="Its wallet receives the payment."
            options={domains}
            name="domainId"
            value={values.domainId}
            onChange={set("domainId")}
            required
          />
        )}
      </fieldset>
      {problem && (
        <FormError>
          {problem.message}{" "}
          {problem.fix && (
            <Link href={problem.fix.href} className="font-medium underline underline-offset-4">
              {problem.fix.label}
            </Link>
          )}
        </FormError>
      )}
      <div>
        <Button type="submit" disabled={blocked || pending || missing}>
          {pending ? <Loader2 className="animate-spin" aria-hidden /> : <Plus aria-hidden />} Create payment
        </Button>
      </div>
    </form>
  );
}
