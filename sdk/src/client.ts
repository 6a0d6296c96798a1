/** The typed client of /api/v1: one method per operation, each through transport.ts's retry rules. */
import { type Page, Paginator } from "./pagination.js";
import { type Call, send, type TransportOptions } from "./transport.js";
import type {
  CancelResult,
  CreatePaymentParams,
  CreatePayoutsParams,
  CreateRefundParams,
  PaymentHistoryItem,
  PaymentHistoryQuery,
  PaymentSession,
  PaymentStatus,
  PayoutBatch,
  PayoutBatchSummary,
  Refund,
  SendWithdrawalParams,
  Withdrawal,
  WithdrawalHistoryQuery,
} from "./types.js";

export interface ClientOptions extends TransportOptions {
  /**
   * Lets a secret key run in a browser-like environment (a page with `window` and `document`),
   * which createClient otherwise refuses: whoever opens the page can read the key and send your
   * money out with it. Only for code that never reaches a page anyone else opens (a test under
   * jsdom, an operator's own desktop tool). Browser code takes a publishable key instead.
   */
  dangerouslyAllowBrowser?: boolean;
}

/** Options of a call that moves money or creates a payment. */
export interface MoneyCallOptions {
  /**
   * Default: a fresh random key per call, reused by this call's own retries, so a retry after a
   * lost answer never creates a second payment or sends twice. Pass your own (e.g. your order id)
   * to make a retry after a crash of your process safe too; `false` sends none (and then a 5xx or
   * a network error is not retried).
   */
  idempotencyKey?: string | false;
  signal?: AbortSignal;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export type BscPayClient = ReturnType<typeof createClient>;

const segment = (value: string) => encodeURIComponent(value);

/** A client for the BSC Pay API (`/api/v1`). Every method resolves with the envelope's `data` or throws a BscPayError. */
export function createClient(options: ClientOptions) {
  if (!options?.apiKey) throw new TypeError("createClient: apiKey is required");
  if (!options.baseUrl || !/^https?:\/\//.test(options.baseUrl)) throw new TypeError("createClient: baseUrl must be an http(s) URL");
  if (isSecretKey(options.apiKey) && inBrowser() && options.dangerouslyAllowBrowser !== true)
    throw new TypeError(
      "createClient: a secret key (bscp_live_…) must never run in a browser — anyone who opens the page can read it and send your money out. " +
        "Use a publishable key (bscp_pk_live_…: creates and reads payments only) in browser code, and keep secret keys on your server.",
    );
  const call = <T>(c: Call) => send<T>(options, c);
  const money = (o: MoneyCallOptions | undefined) => ({ idempotencyKey: o?.idempotencyKey ?? true, signal: o?.signal });
  const list = <T>(path: string, query: Record<string, string | number | undefined>, signal?: AbortSignal) =>
    new Paginator<T>((cursor) => call<Page<T>>({ method: "GET", path, query: { ...query, cursor }, signal }).then(normalPage));

  return {
    payments: {
      /** A payment session (201): a deposit address, its QR code and the hosted `checkoutUrl`. */
      create: (params: CreatePaymentParams, o?: MoneyCallOptions) =>
        call<PaymentSession>({ method: "POST", path: "/api/v1/payment/create", body: params, ...money(o) }),
      /** The session's state now: pending, completed, expired or cancelled, with what arrived. */
      status: (sessionId: string, o?: CallOptions) =>
        call<PaymentStatus>({ method: "GET", path: `/api/v1/payment/${segment(sessionId)}/status`, signal: o?.signal }),
      /** Cancels a pending session; a transfer already mined still counts. */
      cancel: (sessionId: string, o?: CallOptions) =>
        call<CancelResult>({ method: "POST", path: `/api/v1/payment/${segment(sessionId)}/cancel`, signal: o?.signal }),
      /** One page of the key's sessions, newest first (`cursor`: the `nextCursor` of the page before; empty for the first). */
      list: (query: PaymentHistoryQuery & { cursor?: string } = {}, o?: CallOptions) =>
        call<Page<PaymentHistoryItem>>({
          method: "GET",
          path: "/api/v1/payment/history",
          query: { ...query, cursor: query.cursor ?? "" },
          signal: o?.signal,
        }).then(normalPage),
      /** Every session matching the filters, newest first: `for await (const payment of client.payments.history())`. */
      history: (query: PaymentHistoryQuery = {}, o?: CallOptions) =>
        list<PaymentHistoryItem>("/api/v1/payment/history", { ...query }, o?.signal),
    },
    refunds: {
      /**
       * Gives a payer money back from a payment (to `toAddress`, or through the claim link when it
       * is left out). The claim link (`claimUrl`) is in this answer only. An answer replayed for the
       * Idempotency-Key — this call's own retry after a lost answer, or your key used again — has
       * none (its secret was never stored): then this asks for a new link at once, which voids the
       * one in the lost answer.
       */
      create: async (sessionId: string, params: CreateRefundParams = {}, o?: MoneyCallOptions) => {
        const refund = await call<Refund>({
          method: "POST",
          path: `/api/v1/payment/${segment(sessionId)}/refund`,
          body: params,
          ...money(o),
        });
        if (refund.status !== "awaiting_address" || refund.claimUrl !== null) return refund;
        return call<Refund>({ method: "POST", path: `/api/v1/refund/${segment(refund.refundId)}/claim-link`, signal: o?.signal });
      },
      /**
       * A new claim link for a refund waiting for the payer's address (`claimUrl`, shown this once);
       * the link sent before stops working. Only with a key of the member who created the refund.
       */
      claimLink: (refundId: string, o?: CallOptions) =>
        call<Refund>({ method: "POST", path: `/api/v1/refund/${segment(refundId)}/claim-link`, signal: o?.signal }),
      retrieve: (refundId: string, o?: CallOptions) =>
        call<Refund>({ method: "GET", path: `/api/v1/refund/${segment(refundId)}`, signal: o?.signal }),
      /** Cancels a refund still waiting for the payer's address. */
      cancel: (refundId: string, o?: CallOptions) =>
        call<Refund>({ method: "POST", path: `/api/v1/refund/${segment(refundId)}/cancel`, signal: o?.signal }),
      /** The refunds of one payment. */
      listForPayment: (sessionId: string, o?: CallOptions) =>
        call<{ items: Refund[] }>({ method: "GET", path: `/api/v1/payment/${segment(sessionId)}/refunds`, signal: o?.signal }).then(
          (data) => data.items,
        ),
    },
    withdrawals: {
      /** Sends tokens from a domain's withdrawal wallet; recorded before it is broadcast, sent once. */
      send: (params: SendWithdrawalParams, o?: MoneyCallOptions) =>
        call<Withdrawal>({ method: "POST", path: "/api/v1/withdrawal/send", body: params, ...money(o) }),
      retrieve: (withdrawalId: string, o?: CallOptions) =>
        call<Withdrawal>({ method: "GET", path: `/api/v1/withdrawal/${segment(withdrawalId)}`, signal: o?.signal }),
      list: (query: WithdrawalHistoryQuery & { cursor?: string } = {}, o?: CallOptions) =>
        call<Page<Withdrawal>>({
          method: "GET",
          path: "/api/v1/withdrawal/history",
          query: { ...query, cursor: query.cursor ?? "" },
          signal: o?.signal,
        }).then(normalPage),
      history: (query: WithdrawalHistoryQuery = {}, o?: CallOptions) =>
        list<Withdrawal>("/api/v1/withdrawal/history", { ...query }, o?.signal),
    },
    payouts: {
      /** Pays many recipients in one batch (a few transactions), validated whole. */
      create: (params: CreatePayoutsParams, o?: MoneyCallOptions) =>
        call<PayoutBatch>({ method: "POST", path: "/api/v1/payouts", body: params, ...money(o) }),
      /** A batch with its items and their states. */
      retrieve: (batchId: string, o?: CallOptions) =>
        call<PayoutBatch>({ method: "GET", path: `/api/v1/payouts/${segment(batchId)}`, signal: o?.signal }),
      list: (query: { limit?: number; cursor?: string } = {}, o?: CallOptions) =>
        call<Page<PayoutBatchSummary>>({
          method: "GET",
          path: "/api/v1/payouts",
          query: { ...query, cursor: query.cursor ?? "" },
          signal: o?.signal,
        }).then(normalPage),
      history: (query: { limit?: number } = {}, o?: CallOptions) => list<PayoutBatchSummary>("/api/v1/payouts", { ...query }, o?.signal),
    },
  };
}

/** A secret key: every BSC Pay key that is not a publishable one (bscp_live_…, and the test keys to come). */
function isSecretKey(apiKey: string): boolean {
  return apiKey.startsWith("bscp_") && !apiKey.startsWith("bscp_pk_");
}

/**
 * A page in a browser: both `window` and `document`. Node, Bun, web workers and service workers
 * (no `window`), and Deno (a `window` until 2.0, never a `document`) are not; jsdom is.
 */
function inBrowser(): boolean {
  const scope = globalThis as { window?: unknown; document?: unknown };
  return typeof scope.window !== "undefined" && typeof scope.document !== "undefined";
}

function normalPage<T>(data: {
  items: T[];
  nextCursor?: string | null;
  meta?: { limit?: unknown; total?: unknown; pages?: unknown };
}): Page<T> {
  const page: Page<T> = { items: data.items, nextCursor: data.nextCursor ?? null };
  const meta = data.meta;
  if (meta && typeof meta.limit === "number" && typeof meta.total === "number" && typeof meta.pages === "number")
    page.meta = { limit: meta.limit, total: meta.total, pages: meta.pages };
  return page;
}
