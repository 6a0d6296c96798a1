/**
 * The public side of a payment link: what `/l/<slug>` shows, and "Pay" — a fresh session for the
 * hosted checkout, owned by the link's merchant and marked with the link (its id also in the
 * session's metadata, so webhooks carry it). The caller limits how often one client may ask;
 * here the same client gets its open session back and a link's open sessions are capped, per
 * client and in all (open-sessions.ts). A link priced in a currency makes a fiat session paid in
 * the link's token, quoted when Pay is pressed (prepareFiatPrice, before any transaction, as the
 * API's fiat create; docs/design.md §23).
 */

import { and, eq, isNull } from "drizzle-orm";
import { commonRefusal } from "../../base/errors";
import { formatAmount, parseAmount } from "../../base/money";
import type { Db } from "../../db";
import { domains, paymentLinks, type Token } from "../../db/schema";
import { type CreatedSession, createPaymentSession } from "../payments/create-session";
import { depositAddressPool } from "../payments/deposit-address-pool";
import { prepareFiatPrice } from "../payments/fiat-price";
import { amountRefusal, paymentRefusal } from "../payments/reasons";
import { FIAT_MINOR_UNITS, formatFiatAmount } from "../pricing/fiat";
import { acceptedTokenMinimum } from "../tokens/accepted-tokens";
import { findOwnToken } from "../tokens/find-own-token";
import { assertAtLeastMinimumPayment } from "../tokens/minimum-payment";
import { linkAmount } from "./link-view";
import { existingSessionAnswer, type LinkSessionPrice, linkClientHash, sessionToReuse } from "./open-sessions";
import { linkRefusal } from "./reasons";

export async function paymentLinkPage(db: Db, slug: string) {
  const found = await linkBySlug(db, slug);
  if (!found) return null;
  const { link, token, domain } = found;
  // The payer may not choose below the token's minimum payment either: the page shows the higher floor.
  const floor =
    link.minAmount === null ? null : maxOf(link.minAmount, (await acceptedTokenMinimum(db, token.network, token.contractAddress)) ?? 0n);
  return {
    slug: link.slug,
    title: link.title,
    description: link.description,
    token: token.symbol,
    network: token.network,
    amount: linkAmount(link, token.decimals),
    minAmount: floor === null ? null : formatAmount(floor, token.decimals),
    merchant: domain ? new URL(domain.origin).host : null,
    active: link.active && domain !== null,
    // Priced in a currency only: `amount` is in it, the token is what pays it.
    ...(link.currency !== null ? { currency: link.currency } : {}),
  };
}

export type PaymentLinkPage = NonNullable<Awaited<ReturnType<typeof paymentLinkPage>>>;

/** `client`: the caller's limit key (lib/web/http/client-ip.ts), so its repeated Pay returns its open session. */
export async function payPaymentLink(
  db: Db,
  slug: string,
  input: { amount?: string; browser?: string },
  client = "unknown",
): Promise<CreatedSession> {
  const found = await linkBySlug(db, slug);
  if (!found) throw commonRefusal("NOT_FOUND", "not-found", "payment link not found");
  const { link, token, domain } = found;
  if (!link.active || !domain) throw linkRefusal("VALIDATION_ERROR", "link-inactive", "this payment link is no longer active");

  const price: LinkSessionPrice =
    link.currency !== null && link.fiatAmount !== null
      ? { currency: link.currency, fiatMinor: link.fiatAmount }
      : await tokenUnits(db, link, token, input);
  const linkClient = linkClientHash(link.id, client, input.browser);
  // A session to give back, or a full link or client, answers at once, before the feeds are read,
  // a deposit address and a transaction are taken (checked again under the lock).
  const mine = await sessionToReuse(db, link.id, linkClient, price);
  if (mine) return existingSessionAnswer(mine, token);
  const fiat =
    typeof price === "bigint"
      ? null
      : await prepareFiatPrice(db, link.userId, {
          currency: price.currency,
          amount: formatFiatAmount(price.fiatMinor, FIAT_MINOR_UNITS[price.currency] ?? 2),
          tokens: [link.tokenId],
        });
  const common = {
    domainId: link.domainId,
    description: link.description ? `${link.title}\n${link.description}` : link.title,
    metadata: { paymentLinkId: link.id, paymentLink: link.slug },
    redirectUrl: link.redirectUrl ?? undefined,
  };
  const outcome = await depositAddressPool(db).use(
    (deposit) =>
      db.transaction(async (tx) => {
        // One Pay of this link at a time past this point: the caps and the "same client" check hold under races.
        await tx.select({ id: paymentLinks.id }).from(paymentLinks).where(eq(paymentLinks.id, link.id)).for("update");
        const again = await sessionToReuse(tx, link.id, linkClient, price);
        if (again) return { fresh: false, session: await existingSessionAnswer(again, token) };
        const session = await createPaymentSession(
          tx,
          { userId: link.userId, apiKeyId: null, paymentLinkId: link.id, linkClient },
          fiat
            ? { currency: fiat.fiat.currency, amount: formatFiatAmount(fiat.fiat.minor, fiat.fiat.minorDigits), ...common, price: fiat }
            : { tokenId: link.tokenId, amount: formatAmount(price as bigint, token.decimals), ...common },
          null,
          deposit,
        );
        return { fresh: true, session };
      }),
    (result) => result.fresh,
  );
  return outcome.session;
}

/** A token-priced link's amount: its fixed one, or the payer's (at least the link's and the token's minimum). */
async function tokenUnits(
  db: Db,
  link: { amount: bigint | null; minAmount: bigint | null },
  token: Token,
  input: { amount?: string },
): Promise<bigint> {
  let units: bigint;
  if (link.amount !== null) {
    units = link.amount;
  } else {
    if (input.amount === undefined) throw linkRefusal("VALIDATION_ERROR", "link-amount-missing", "amount: choose how much to pay");
    const chosen = parseAmount(input.amount, token.decimals);
    if (typeof chosen === "string") throw amountRefusal("amount", chosen, token.decimals);
    if (link.minAmount !== null && chosen < link.minAmount) {
      throw paymentRefusal(
        "VALIDATION_ERROR",
        "amount-below-minimum",
        `amount must be at least ${formatAmount(link.minAmount, token.decimals)} ${token.symbol}`,
      );
    }
    units = chosen;
  }
  const minimum = await acceptedTokenMinimum(db, token.network, token.contractAddress);
  if (minimum === null) throw linkRefusal("VALIDATION_ERROR", "link-inactive", "this payment link is no longer active");
  assertAtLeastMinimumPayment("amount", units, minimum, token);
  return units;
}

const maxOf = (a: bigint, b: bigint) => (a > b ? a : b);

async function linkBySlug(db: Db, slug: string) {
  if (!/^[A-Za-z0-9_-]{6,32}$/.test(slug)) return null;
  const [row] = await db
    .select({ link: paymentLinks, domain: { origin: domains.origin } })
    .from(paymentLinks)
    .leftJoin(domains, and(eq(domains.id, paymentLinks.domainId), isNull(domains.deletedAt)))
    .where(eq(paymentLinks.slug, slug));
  if (!row) return null;
  const token = await findOwnToken(db, row.link.userId, row.link.tokenId);
  if (!token) return null;
  return { link: row.link, token, domain: row.domain };
}
