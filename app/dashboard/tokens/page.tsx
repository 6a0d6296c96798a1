import { Coins } from "lucide-react";
import type { Metadata } from "next";
import { Address } from "@/components/dashboard/address";
import { EmptyState } from "@/components/dashboard/empty-state";
import { PageHeader } from "@/components/dashboard/page-header";
import { CatalogueList } from "@/components/tokens/catalogue-list";
import { CustomTokenForm } from "@/components/tokens/custom-token-form";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { requireUser } from "@/lib/auth/current-user";
import { listNetworks } from "@/lib/chain/networks";
import { getConfig } from "@/lib/config";
import { loadTokensPage } from "@/lib/dashboard/pages";

export const metadata: Metadata = { title: "Tokens" };

export default async function TokensPage() {
  const user = await requireUser();
  const { catalogue, mine } = await loadTokensPage(user.id);
  return (
    <>
      <PageHeader title="Tokens" description="The tokens your shop accepts. Payments and withdrawals name them by tokenId." />
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
                description="Register a token from the gateway's list below, then use its tokenId in payment requests."
              />
            ) : (
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>tokenId</TableHead>
                    <TableHead>Token</TableHead>
                    <TableHead>Network</TableHead>
                    <TableHead className="hidden sm:table-cell">Decimals</TableHead>
                    <TableHead className="hidden md:table-cell">Contract</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {mine.map((t) => (
                    <TableRow key={t.tokenId}>
                      <TableCell className="font-mono">{t.tokenId}</TableCell>
                      <TableCell>
                        <span className="font-medium">{t.symbol}</span> <span className="text-muted-foreground">{t.name}</span>
                      </TableCell>
                      <TableCell>{t.network}</TableCell>
                      <TableCell className="hidden sm:table-cell">{t.decimals}</TableCell>
                      <TableCell className="hidden md:table-cell">
                        <Address value={t.contractAddress} />
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
              <CatalogueList entries={catalogue} />
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
