import { Coins } from "lucide-react";
import type { Metadata } from "next";
import { Address } from "@/components/dashboard/address";
import { EmptyState } from "@/components/dashboard/empty-state";
import { PageHeader } from "@/components/dashboard/page-header";
import { CatalogueList } from "@/components/tokens/catalogue-list";
import { CustomTokenForm } from "@/components/tokens/custom-token-form";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { getConfig } from "@/lib/base/config";
import { isNativeToken } from "@/lib/engine/chain/native";
import { listNetworks } from "@/lib/engine/chain/networks";
import { explorerAddressUrl } from "@/lib/web/dashboard/shared/explorer";
import { networkLabel } from "@/lib/web/dashboard/shared/wording";
import { loadTokensPage } from "@/lib/web/dashboard/tokens/loaders";
import { withAccountPage } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "Tokens" };

export default async function TokensPage() {
  const { catalogue, mine } = await withAccountPage("read", ({ account }) => loadTokensPage(account.id));
  return (
    <>
      <PageHeader
        title="Tokens"
        description="The tokens your shop accepts. API requests name a token by its number, shown here as Token #1, #2…"
      />
      <div className="grid gap-6">
        <Card>
          <CardHeader>
            <CardTitle>Your tokens</CardTitle>
          </CardHeader>
          <CardContent className="p-2 sm:px-5">
            {mine.length === 0 ? (
              <EmptyState
                icon={Coins}
                title="No tokens yet"
                description="Register a token from the gateway's list below: your customers can then pay in it."
              />
            ) : (
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>Token</TableHead>
                    <TableHead>Number</TableHead>
                    <TableHead>Network</TableHead>
                    <TableHead className="hidden sm:table-cell">Decimals</TableHead>
                    <TableHead className="hidden md:table-cell">Contract</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {mine.map((t) => (
                    <TableRow key={t.tokenId}>
                      <TableCell>
                        <span className="font-medium">{t.symbol}</span> <span className="text-muted-foreground">{t.name}</span>
                      </TableCell>
                      <TableCell className="whitespace-nowrap">Token #{t.tokenId}</TableCell>
                      <TableCell>{networkLabel(t.network)}</TableCell>
                      <TableCell className="hidden sm:table-cell">{t.decimals}</TableCell>
                      <TableCell className="hidden md:table-cell">
                        {isNativeToken(t.contractAddress) ? (
                          <span className="text-muted-foreground">Native coin</span>
                        ) : (
                          <Address value={t.contractAddress} href={explorerAddressUrl(t.network, t.contractAddress)} />
                        )}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Register a token</CardTitle>
            <CardDescription>The tokens this gateway accepts, as its operator vetted them.</CardDescription>
          </CardHeader>
          <CardContent>
            {catalogue.length === 0 ? (
              <p className="text-sm text-muted-foreground">The operator has not allowed any token on this server&apos;s networks yet.</p>
            ) : (
              <CatalogueList
                entries={catalogue.map((e) => {
                  const native = isNativeToken(e.contractAddress);
                  return { ...e, native, explorerUrl: native ? null : explorerAddressUrl(e.network, e.contractAddress) };
                })}
              />
            )}
          </CardContent>
        </Card>
        {getConfig().openTokenRegistration && (
          <Card>
            <CardHeader>
              <CardTitle>Another ERC-20</CardTitle>
              <CardDescription>
                This gateway lets you add any token contract. Its symbol and decimals are read from the chain first.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <CustomTokenForm networks={listNetworks().map((n) => n.name)} />
            </CardContent>
          </Card>
        )}
      </div>
    </>
  );
}
