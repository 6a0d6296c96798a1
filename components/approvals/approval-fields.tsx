/**
 * What an approval row says, in the words the Approvals page uses: its kind, who asked, how long
 * it has waited and where the money goes. Shared by the desktop columns, the lines stacked under
 * the amount on phones and the approve dialog.
 */
import Link from "next/link";
import { Address } from "@/components/dashboard/address";
import type { ApprovalView } from "@/lib/domain/approvals/inbox";

export const KIND_WORDS: Record<ApprovalView["kind"], string> = { withdrawal: "Withdrawal", refund: "Refund", payout: "Payout batch" };

export const STATUS_WORDS: Record<ApprovalView["status"], string> = {
  awaiting_approval: "Awaiting approval",
  approved: "Approved",
  rejected: "Rejected",
  expired: "Expired",
};

export function requester(a: ApprovalView): string {
  if (!a.requestedBy) return "—";
  const { email, apiKey } = a.requestedBy;
  if (!apiKey) return email ?? "a former member";
  return `${email ?? "a former member"} (API key “${apiKey.name}”)`;
}

export function decider(a: ApprovalView): string {
  return a.decidedBy?.email ?? (a.status === "expired" ? "nobody (72 h)" : "—");
}

export function age(iso: string, now: number): string {
  const minutes = Math.max(0, Math.round((now - Date.parse(iso)) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} d`;
}

/**
 * Where the money goes, as the approver must see it before approving. In a row the address is
 * shortened in the middle (the whole of it on hover, for screen readers and in the copy button);
 * `full`, in the approve dialog, shows every character.
 */
export function Destination({ a, full = false }: { a: ApprovalView; full?: boolean }) {
  if (a.kind === "payout" && a.items) {
    return (
      <span className="grid gap-1">
        <Link href={`/dashboard/payouts/${a.subjectId}`} className="underline-offset-4 hover:underline">
          {a.items.count === 1 ? "1 recipient" : `${a.items.count} recipients`}
        </Link>
        {full && (
          <ul className="grid gap-0.5 text-xs text-muted-foreground" data-testid="approval-items">
            {a.items.first.map((i) => (
              <li key={i.index} className="break-all">
                {i.amount} {a.token} → <span className="font-mono">{i.toAddress}</span>
              </li>
            ))}
            {a.items.count > a.items.first.length && <li>… and {a.items.count - a.items.first.length} more (all on the batch's page)</li>}
          </ul>
        )}
      </span>
    );
  }
  const payment = a.payment && (
    <Link href={`/dashboard/payments/${a.payment.sessionId}`} className="text-xs underline-offset-4 hover:underline">
      refund of {a.payment.orderId ? `order ${a.payment.orderId}` : "a payment"}
    </Link>
  );
  return (
    <span className="grid gap-0.5">
      {a.toAddress === null ? (
        <span>the payer's claim</span>
      ) : full ? (
        <span className="break-all font-mono text-[0.8125rem]" data-testid="approval-destination">
          {a.toAddress}
        </span>
      ) : (
        <Address value={a.toAddress} />
      )}
      {payment}
    </span>
  );
}
