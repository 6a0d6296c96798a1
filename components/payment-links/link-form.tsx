"use client";

import { Loader2, Plus, Save } from "lucide-react";
import Link from "next/link";
import { useState, useTransition } from "react";
import { TwoFactorCodeField } from "@/components/account/two-factor-code-field";
import { type Option, OptionField } from "@/components/dashboard/option-field";
import { Button } from "@/components/ui/button";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { RadioChoice } from "@/components/ui/radio-choice";
import type { PaymentLinkView } from "@/lib/domain/payment-links/link-view";
import { createLinkAction, updateLinkAction } from "@/lib/web/dashboard/links/actions";
import { AMOUNT_WORDS } from "@/lib/web/dashboard/shared/refusal-words";

/** The page that fixes a refusal the form cannot: a domain. */
const FIXES: Record<string, { href: string; label: string }> = {
  DOMAIN_NOT_WHITELISTED: { href: "/dashboard/domains", label: "Go to Domains" },
};

type Pricing = "fixed" | "open";

/** The field a refusal is about, by its reason, in the form's words (lib's messages are for API clients). */
function fieldRefusal(reason: string | undefined, priceField: "amount" | "minAmount", currency: string | null) {
  if (currency && reason === "amount-too-precise") return { field: "amount", words: `Too many digits after the dot for ${currency}.` };
  if (reason && reason in AMOUNT_WORDS) return { field: priceField, words: AMOUNT_WORDS[reason as keyof typeof AMOUNT_WORDS] };
  if (reason === "token-unknown") return { field: "tokenId", words: "Choose one of your registered tokens." };
  if (reason === "token-not-accepted") return { field: "tokenId", words: "This gateway no longer accepts this token. Choose another one." };
  return null;
}

const FIELDS = ["title", "description", "tokenId", "amount", "minAmount", "currency", "domainId", "redirectUrl", "code"];

/**
 * A payment link's fields. New (`link` absent): everything, token, domain and what the price is in
 * (the token, or the account's `currency`: a fixed price paid in the token at the rate of each Pay)
 * included. Edit: the words, the price and the redirect (the token, the receiving domain and the
 * price's currency stay). Optional fields left empty are cleared (null) on an edit and left out on a create.
 */
export function LinkForm({
  link,
  currency: accountCurrency,
  tokens = [],
  domains = [],
  blocked = false,
  twoFactor = false,
  onSaved,
}: {
  /** Two-factor is on: a domain other than the first (where the money goes) asks for a code. */
  twoFactor?: boolean;
  link?: PaymentLinkView;
  /** The account's currency, offered as what a new link's price is in. */
  currency?: string;
  tokens?: (Option & { symbol: string; decimals: number })[];
  domains?: Option[];
  blocked?: boolean;
  onSaved: (link: PaymentLinkView) => void;
}) {
  const [values, setValues] = useState({
    title: link?.title ?? "",
    description: link?.description ?? "",
    tokenId: link ? String(link.tokenId) : tokens[0] ? String(tokens[0].id) : "",
    price: link?.amount ?? link?.minAmount ?? "",
    domainId: domains[0] ? String(domains[0].id) : "",
    redirectUrl: link?.redirectUrl ?? "",
  });
  const [pricing, setPricing] = useState<Pricing>(link && link.amount === null ? "open" : "fixed");
  // A price in a currency (docs/design.md §23): the link's own when editing, else chosen here.
  const [inCurrency, setInCurrency] = useState(Boolean(link?.currency));
  const currency = link ? (link.currency ?? null) : inCurrency ? (accountCurrency ?? null) : null;
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<{ message: string; fix?: { href: string; label: string } } | null>(null);
  const [code, setCode] = useState("");
  const [pending, start] = useTransition();
  // The first domain is the default of every link; choosing another one is a change of payout target.
  const needsCode = twoFactor && !link && domains.length > 1 && values.domainId !== String(domains[0]?.id ?? "");
  const set = (field: keyof typeof values) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
    const cleared = field === "price" ? ["amount", "minAmount"] : [field];
    setErrors((prev) => Object.fromEntries(Object.entries(prev).filter(([f]) => !cleared.includes(f))));
  };
  const symbol = link?.token ?? tokens.find((t) => String(t.id) === values.tokenId)?.symbol ?? "";
  const missing = !values.title.trim() || !values.price.trim() || (!link && !values.tokenId) || (needsCode && !code.trim());
  const priceError = errors.amount ?? errors.minAmount;

  const submit = () =>
    start(async () => {
      const price = values.price.trim();
      const common = {
        title: values.title.trim(),
        amount: pricing === "fixed" || currency ? price : null,
        minAmount: pricing === "open" && !currency ? price : null,
      };
      const result = link
        ? await updateLinkAction({
            linkId: link.linkId,
            ...common,
            description: values.description.trim() || null,
            redirectUrl: values.redirectUrl.trim() || null,
          })
        : await createLinkAction({
            ...common,
            tokenId: Number(values.tokenId),
            ...(currency ? { currency } : {}),
            ...(values.description.trim() ? { description: values.description.trim() } : {}),
            ...(values.redirectUrl.trim() ? { redirectUrl: values.redirectUrl.trim() } : {}),
            ...(domains.length > 1 ? { domainId: Number(values.domainId) } : {}),
            ...(needsCode ? { code: code.trim() } : {}),
          });
      setCode("");
      if (!result.ok) {
        const onField = fieldRefusal(result.reason, pricing === "fixed" || currency ? "amount" : "minAmount", currency);
        const all = result.fieldErrors ?? (onField ? { [onField.field]: onField.words } : {});
        const fields = Object.fromEntries(Object.entries(all).filter(([f]) => FIELDS.includes(f)));
        setErrors(fields);
        setProblem(Object.keys(fields).length ? null : { message: result.error, fix: result.code ? FIXES[result.code] : undefined });
        return;
      }
      setErrors({});
      setProblem(null);
      onSaved(result.data);
    });

  return (
    <form
      className="grid gap-4"
      aria-label={link ? "Edit payment link" : "New payment link"}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!missing) submit();
      }}
    >
      <fieldset disabled={blocked || pending} className="grid gap-4 sm:grid-cols-2">
        <Field label="Title" error={errors.title} hint="The page's heading, e.g. “Coffee beans, 1 kg”." className="sm:col-span-2">
          {(control) => (
            <Input {...control} name="title" maxLength={100} value={values.title} onChange={set("title")} autoComplete="off" required />
          )}
        </Field>
        <Field
          label="Description (optional)"
          error={errors.description}
          hint="Shown under the title, on the link's page and the checkout."
          className="sm:col-span-2"
        >
          {(control) => <Input {...control} name="description" maxLength={500} value={values.description} onChange={set("description")} />}
        </Field>
        {!link && (
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
        {!link && domains.length > 1 && (
          <OptionField
            label="Domain"
            error={errors.domainId}
            hint="Its wallet receives the payments."
            options={domains}
            name="domainId"
            value={values.domainId}
            onChange={set("domainId")}
            required
          />
        )}
        {needsCode && <TwoFactorCodeField value={code} onChange={setCode} error={errors.code} required />}
        {!link && accountCurrency && (
          <fieldset className="grid gap-2 sm:col-span-2">
            <legend className="mb-1.5 text-sm font-medium">Price in</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              <RadioChoice
                name="priceIn"
                value="token"
                checked={!inCurrency}
                onChange={() => setInCurrency(false)}
                label="The token"
                hint="An amount of the token the payer pays in."
              />
              <RadioChoice
                name="priceIn"
                value="currency"
                checked={inCurrency}
                onChange={() => setInCurrency(true)}
                label={`${accountCurrency}, your account's currency`}
                hint="A fixed price, paid in the token at the rate when the payer presses Pay."
              />
            </div>
          </fieldset>
        )}
        <fieldset className={currency ? "hidden" : "grid gap-2 sm:col-span-2"}>
          <legend className="mb-1.5 text-sm font-medium">Price</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            <RadioChoice
              name="pricing"
              value="fixed"
              checked={pricing === "fixed"}
              onChange={() => setPricing("fixed")}
              label="A fixed amount"
              hint="Every payer pays the same."
            />
            <RadioChoice
              name="pricing"
              value="open"
              checked={pricing === "open"}
              onChange={() => setPricing("open")}
              label="The payer chooses"
              hint="A tip or a donation: you set the least they may pay."
            />
          </div>
        </fieldset>
        <Field
          label={currency ? `Amount in ${currency}` : pricing === "fixed" ? "Amount" : "Minimum amount"}
          error={priceError}
          hint={
            currency
              ? `In ${currency}, e.g. 25.00; each payer pays it in ${symbol || "the token"}.`
              : symbol
                ? `In ${symbol}, e.g. 12.5.`
                : undefined
          }
        >
          {(control) => (
            <Input
              {...control}
              name="price"
              inputMode="decimal"
              autoComplete="off"
              placeholder={currency ? "25.00" : pricing === "fixed" ? "12.5" : "5"}
              value={values.price}
              onChange={set("price")}
              required
            />
          )}
        </Field>
        <Field
          label="Redirect URL (optional)"
          error={errors.redirectUrl}
          hint="Where the payer goes after paying, e.g. your thank-you page."
          className="sm:col-span-2"
        >
          {(control) => (
            <Input
              {...control}
              name="redirectUrl"
              type="url"
              inputMode="url"
              maxLength={2000}
              placeholder="https://shop.example.com/thanks"
              value={values.redirectUrl}
              onChange={set("redirectUrl")}
            />
          )}
        </Field>
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
          {pending ? <Loader2 className="animate-spin" aria-hidden /> : link ? <Save aria-hidden /> : <Plus aria-hidden />}{" "}
          {link ? "Save changes" : "Create link"}
        </Button>
      </div>
    </form>
  );
}
