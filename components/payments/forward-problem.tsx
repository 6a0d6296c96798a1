/**
 * Why a forward is on hold or being tried again: the merchant's sentence first; the engine's own
 * reason (written for the operator: transaction hashes, RPC errors) folded under it, for whoever
 * runs the gateway or asks its operator.
 */
export function ForwardProblem({ heldReason, lastError }: { heldReason: string | null; lastError: string | null }) {
  const reason = heldReason ?? lastError;
  if (!reason) return null;
  return (
    <div className="mt-1 grid gap-0.5 text-xs" data-testid="forward-problem">
      <p className={heldReason ? "text-destructive" : "text-muted-foreground"}>
        {heldReason
          ? "On hold: it could not be sent to your wallet automatically. Your operator can send it again once the cause is fixed."
          : "The last attempt to send it did not go through; it is tried again automatically."}
      </p>
      <details className="text-muted-foreground">
        <summary className="w-fit cursor-pointer">Technical details</summary>
        <p className="mt-0.5 font-mono break-words">{reason}</p>
      </details>
    </div>
  );
}
