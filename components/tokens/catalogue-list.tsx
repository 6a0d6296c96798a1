"use client";

import { Check, Loader2, Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { toast } from "sonner";
import { Address } from "@/components/dashboard/address";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { networkLabel } from "@/lib/web/dashboard/shared/wording";
import { registerTokenAction } from "@/lib/web/dashboard/tokens/actions";

export interface CatalogueEntry {
  network: string;
  contractAddress: string;
  symbol: string;
  name: string;
  decimals: number;
  minForward: string;
  registered: boolean;
  /** The contract on the network's block explorer (none for the local test chain, nor for BNB). */
  explorerUrl: string | null;
  /** BNB itself: no contract to show. */
  native: boolean;
}

/** The gateway's accepted tokens, each with what will be saved (symbol, decimals) and a register button. */
export function CatalogueList({ entries }: { entries: CatalogueEntry[] }) {
  const router = useRouter();
  const [busy, setBusy] = useState<string | null>(null);
  const [, start] = useTransition();
  const register = (entry: CatalogueEntry) => {
    setBusy(entry.contractAddress);
    start(async () => {
      const result = await registerTokenAction({ contractAddress: entry.contractAddress, network: entry.network });
      setBusy(null);
      if (!result.ok) toast.error("Token not registered", { description: result.error });
      else
        toast.success(`${result.data.symbol} registered`, {
          description: `Token #${result.data.tokenId}: you can take payments in it now.`,
        });
      router.refresh();
    });
  };
  return (
    <ul className="grid gap-3 sm:grid-cols-2">
      {entries.map((entry) => (
        <li
          key={`${entry.network}:${entry.contractAddress}`}
          className="flex flex-col gap-3 rounded-lg border p-4"
          data-symbol={entry.symbol}
        >
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0">
              <p className="font-semibold">
                {entry.symbol} <span className="font-normal text-muted-foreground">· {entry.name}</span>
              </p>
              <p className="text-xs text-muted-foreground">
                {networkLabel(entry.network)} · {entry.decimals} decimals · paid out from {entry.minForward} {entry.symbol}
              </p>
            </div>
            {entry.registered ? (
              <Badge variant="success">
                <Check className="size-3" aria-hidden /> Registered
              </Badge>
            ) : (
              <Button
                size="sm"
                onClick={() => register(entry)}
                disabled={busy !== null}
                aria-label={`Register ${entry.symbol} on ${networkLabel(entry.network)}`}
              >
                {busy === entry.contractAddress ? <Loader2 className="animate-spin" aria-hidden /> : <Plus aria-hidden />} Register
              </Button>
            )}
          </div>
          {entry.native ? (
            <p className="text-xs text-muted-foreground">The chain&apos;s own coin, sent straight to the deposit address (no contract).</p>
          ) : (
            <Address value={entry.contractAddress} href={entry.explorerUrl} className="text-muted-foreground" />
          )}
        </li>
      ))}
    </ul>
  );
}
