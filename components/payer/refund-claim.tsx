"use client";

import { AlertTriangle, CheckCircle2, Clock, ExternalLink, Loader2, XCircle } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { ErrorDetail } from "@/lib/base/errors";
import { readableDecimal } from "@/lib/base/money";
import { claimProblemOf } from "@/lib/domain/refunds/claim-problems";
import type { RefundClaimPage } from "@/lib/domain/refunds/claim-refund";
import { fill, formatDecimal, INTL_TAGS, type Locale, type NumberSymbols } from "@/lib/web/i18n/locale";
import { claimProblemMessage, type PayerPageMessages } from "@/lib/web/i18n/refund-messages";
import { PayerFrame, PayerNetworkChip } from "./payer-frame";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const ZERO = /^0x0{40}$/;

interface Props {
  initial: RefundClaimPage;
  /** The claim link's secret (`?k=`): every read and the claim carry it. */
  claimKey: string;
  locale: Locale;
  symbols: NumberSymbols;
  messages: PayerPageMessages;
  explorerTxBase: string | null;
}

/** While it is in one of these, the page reads it again every so many ms. */
const POLL_MS: Partial<Record<RefundClaimPage["status"], number>> = { sending: 3000, awaiting_funds: 15_000, awaiting_approval: 15_000 };

/** The payer's refund: give an address (typed, from the connected wallet, or the sender's — chosen, never silently), then follow it. */
export function RefundClaim({ initial, claimKey, locale, symbols, messages: t, explorerTxBase }: Props) {
  const [refund, setRefund] = useState(initial);
  const [address, setAddress] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [hasWallet, setHasWallet] = useState(false);

  useEffect(() => setHasWallet(typeof window !== "undefined" && "ethereum" in window), []);

  const query = `?k=${encodeURIComponent(claimKey)}`;

  // While it is on its way, read it again every few seconds; while it waits for the shop (its funds, its approval), less often.
  useEffect(() => {
    const every = POLL_MS[refund.status];
    if (every === undefined) return;
    const timer = setInterval(async () => {
      const response = await fetch(`/api/refund/${refund.refundId}${query}`, { cache: "no-store" }).catch(() => null);
      const body = response?.ok ? ((await response.json()) as { data: RefundClaimPage }) : null;
      if (body) setRefund(body.data);
    }, every);
    return () => clearInterval(timer);
  }, [refund.status, refund.refundId, query]);

  const submit = async () => {
    const value = address.trim();
    if (!ADDRESS.test(value)) {
      setProblem(t.invalidAddress);
      return;
    }
    if (ZERO.test(value)) {
      setProblem(t.zeroAddress);
      return;
    }
    setSubmitting(true);
    setProblem(null);
    try {
      const response = await fetch(`/api/refund/${refund.refundId}/claim${query}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ address: value }),
      });
      const body = (await response.json().catch(() => null)) as {
        success: boolean;
        data?: RefundClaimPage;
        error?: { code: string; reason?: string; details?: ErrorDetail[] };
      } | null;
      if (body?.success && body.data) {
        setRefund({ ...refund, ...body.data });
        return;
      }
      // The server's words are for the merchant and the log: the payer reads the problem in their language.
      setProblem(claimProblemMessage(claimProblemOf(body?.error), t));
      // Claimed, cancelled or expired meanwhile: show where it stands.
      const current = await fetch(`/api/refund/${refund.refundId}${query}`, { cache: "no-store" }).catch(() => null);
      const fresh = current?.ok ? ((await current.json()) as { data: RefundClaimPage }).data : null;
      if (fresh && fresh.status !== "awaiting_address") setRefund(fresh);
    } catch {
      setProblem(t.claimUnavailable);
    } finally {
      setSubmitting(false);
    }
  };

  const fillFromWallet = async () => {
    const provider = (window as unknown as { ethereum?: { request(args: { method: string }): Promise<string[]> } }).ethereum;
    const accounts = await provider?.request({ method: "eth_requestAccounts" }).catch(() => []);
    if (accounts?.[0]) setAddress(accounts[0]);
  };

  const txUrl = refund.txHash && explorerTxBase ? `${explorerTxBase}${refund.txHash}` : null;
  const date = new Intl.DateTimeFormat(INTL_TAGS[locale], { dateStyle: "long" }).format(new Date(refund.claimExpiresAt));

  return (
    <PayerFrame locale={locale} messages={t} labelledBy="refund-title">
      <div className="grid justify-items-center gap-2 text-center">
        <p id="refund-title" className="text-sm text-muted-foreground">
          {refund.merchant ? fill(t.refundFrom, { merchant: refund.merchant }) : t.refund}
        </p>
        {/* A refund in fiat: its fiat amount is the headline, the tokens sent and the rate under it. */}
        <p data-testid="refund-amount" className="text-4xl font-semibold tracking-tight tabular-nums">
          {formatDecimal(refund.fiatAmount ?? refund.amount, symbols)} <span className="text-2xl">{refund.currency ?? refund.token}</span>
        </p>
        {refund.fiatAmount && refund.rate ? (
          <p data-testid="refund-tokens" className="text-sm text-muted-foreground tabular-nums">
            {formatDecimal(readableDecimal(refund.amount, 8), symbols)} {refund.token} · 1 {refund.token} ={" "}
            {formatDecimal(readableDecimal(refund.rate, 8, 2), symbols)} {refund.currency}
          </p>
        ) : null}
        <PayerNetworkChip network={refund.network} locale={locale} />
        {refund.description ? <p className="text-sm whitespace-pre-line">{refund.description}</p> : null}
        {refund.orderId ? <p className="text-xs text-muted-foreground">{fill(t.order, { order: refund.orderId })}</p> : null}
      </div>

      {refund.status === "awaiting_address" ? (
        <form
          className="grid gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <label htmlFor="refund-address" className="text-sm font-medium">
            {t.addressLabel}
          </label>
          <Input
            id="refund-address"
            name="address"
            value={address}
            onChange={(event) => setAddress(event.target.value)}
            placeholder="0x…"
            autoComplete="off"
            spellCheck={false}
            inputMode="text"
            aria-invalid={problem !== null}
            aria-describedby="refund-address-help"
            className="font-mono"
          />
          <p id="refund-address-help" className="text-xs text-muted-foreground">
            {t.addressHelp}
          </p>
          {hasWallet ? (
            <Button type="button" variant="outline" onClick={() => void fillFromWallet()}>
              {t.useWallet}
            </Button>
          ) : null}
          {refund.senderHint ? (
            <div className="grid gap-2 rounded-xl border border-warning/40 bg-warning/10 p-3 text-sm">
              <div className="flex gap-2">
                <AlertTriangle className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden />
                <div className="grid min-w-0 gap-1">
                  <p>{t.senderHint}</p>
                  <code className="font-mono text-xs break-all">{refund.senderHint}</code>
                  <p>{t.senderWarning}</p>
                </div>
              </div>
              <Button
                type="button"
                variant="ghost"
                size="sm"
                className="justify-self-start"
                onClick={() => setAddress(refund.senderHint ?? "")}
              >
                {t.useSender}
              </Button>
            </div>
          ) : null}
          {problem ? (
            <p role="alert" className="text-sm text-destructive">
              {problem}
            </p>
          ) : null}
          <Button type="submit" variant="brand" size="lg" disabled={submitting || address.trim() === ""}>
            {submitting ? <Loader2 className="animate-spin" aria-hidden /> : null}
            {submitting ? t.submitting : t.submit}
          </Button>
          <p className="text-center text-xs text-muted-foreground">{fill(t.claimBy, { date })}</p>
        </form>
      ) : (
        <RefundOutcome refund={refund} messages={t} txUrl={txUrl} intlTag={INTL_TAGS[locale]} />
      )}
    </PayerFrame>
  );
}

function RefundOutcome({
  refund,
  messages: t,
  txUrl,
  intlTag,
}: {
  refund: RefundClaimPage;
  messages: PayerPageMessages;
  txUrl: string | null;
  intlTag: string;
}) {
  const done = refund.status === "completed";
  const sending = refund.status === "sending";
  // Claimed and recorded, but the shop's wallet cannot pay yet: it goes out by itself (the merchant sees why).
  const short = refund.status === "awaiting_funds";
  // Claimed above the shop's approval threshold: a second person there confirms the address before anything is sent.
  const confirming = refund.status === "awaiting_approval";
  const waiting = short || confirming;
  const Icon = done ? CheckCircle2 : sending ? Loader2 : waiting ? Clock : XCircle;
  const title = done
    ? t.completedTitle
    : sending
      ? t.sendingTitle
      : short
        ? t.awaitingFundsTitle
        : confirming
          ? t.awaitingApprovalTitle
          : refund.status === "failed"
            ? t.failedTitle
            : t.cancelledTitle;
  const body = done
    ? t.completedBody
    : sending
      ? t.sendingBody
      : short
        ? t.awaitingFundsBody
        : confirming
          ? t.awaitingApprovalBody
          : t.unavailableBody;
  const tone = done ? "text-success" : sending ? "animate-spin text-muted-foreground" : waiting ? "text-warning" : "text-destructive";
  return (
    <div role="status" data-testid="refund-status" data-status={refund.status} className="grid gap-3 rounded-xl border p-4 text-center">
      <Icon className={`mx-auto size-8 ${tone}`} aria-hidden />
      <p className="font-semibold">{title}</p>
      <p className="text-sm text-muted-foreground">{body}</p>
      {refund.toAddress ? (
        <p className="text-xs text-muted-foreground">
          {waiting ? `${t.addressLabel}:` : t.sentTo} <span className="font-mono break-all text-foreground">{refund.toAddress}</span>
        </p>
      ) : null}
      {refund.txHash ? <SentDetails txHash={refund.txHash} sentAt={refund.sentAt} intlTag={intlTag} t={t} /> : null}
      {txUrl ? (
        <a
          href={txUrl}
          target="_blank"
          rel="noreferrer"
          className="inline-flex items-center justify-center gap-1 text-sm font-medium underline underline-offset-4"
        >
          {t.viewTransaction} <ExternalLink className="size-3.5" aria-hidden />
        </a>
      ) : null}
    </div>
  );
}

/** Once sent: the transaction's hash, whole (the payer may quote it), and when it went out, in the payer's language. */
function SentDetails({ txHash, sentAt, intlTag, t }: { txHash: string; sentAt: string | null; intlTag: string; t: PayerPageMessages }) {
  // The payer's own time zone: known only in the browser (the server's render leaves it blank, no hydration mismatch).
  const [local, setLocal] = useState(false);
  useEffect(() => setLocal(true), []);
  return (
    <dl className="grid gap-1.5 rounded-lg bg-muted/50 p-3 text-left text-xs" data-testid="refund-sent">
      <div className="grid gap-0.5">
        <dt className="text-muted-foreground">{t.transactionLabel}</dt>
        <dd className="font-mono break-all select-all" data-testid="refund-tx-hash">
          {txHash}
        </dd>
      </div>
      {sentAt && local ? (
        <div className="grid gap-0.5">
          <dt className="text-muted-foreground">{t.sentAtLabel}</dt>
          <dd data-testid="refund-sent-at">
            <time dateTime={sentAt}>
              {new Intl.DateTimeFormat(intlTag, { dateStyle: "long", timeStyle: "short" }).format(new Date(sentAt))}
            </time>
          </dd>
        </div>
      ) : null}
    </dl>
  );
}
