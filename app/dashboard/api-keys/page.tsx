import { KeyRound } from "lucide-react";
import type { Metadata } from "next";
import { CreateApiKey } from "@/components/api-keys/create-key";
import { RevokeApiKey } from "@/components/api-keys/revoke-key";
import { EmptyState } from "@/components/dashboard/empty-state";
import { formatDateTime } from "@/components/dashboard/format";
import { PageHeader } from "@/components/dashboard/page-header";
import { RoleNote } from "@/components/dashboard/role-note";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { type ApiKeyView, MAX_LIVE_API_KEYS } from "@/lib/accounts/api-keys/manage-api-keys";
import { scopesOfRole } from "@/lib/accounts/api-keys/scopes";
import { roleAllows } from "@/lib/accounts/members/roles";
import { loadApiKeysPage } from "@/lib/web/dashboard/api-keys/loaders";
import { withAccountPage } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "API keys" };

/** The cards are min-w-0: on a phone the keys table scrolls inside its card instead of widening the page. */
export default async function ApiKeysPage() {
  const { member, role, keys } = await withAccountPage("read", async ({ account, member, role }) => ({
    member,
    role,
    keys: await loadApiKeysPage(account.id),
  }));
  const live = keys.filter((k) => !k.revokedAt).length;
  const maker = (k: ApiKeyView) => (k.createdBy ? (k.createdBy.userId === member.id ? "you" : k.createdBy.email) : "a former user");
  return (
    <>
      <PageHeader
        title="API keys"
        description="Your shop calls /api/v1 with one of these as x-api-key: a secret key from its server, a publishable key from its pages (payments only). Each key sees only the payments it created, and acts for the member who made it: never with more than their role allows, and it stops when they leave."
      />
      <div className="grid gap-6">
        <Card className="min-w-0">
          <CardHeader>
            <CardTitle>Create a key</CardTitle>
            <CardDescription>
              {live} of {MAX_LIVE_API_KEYS} live keys in use.
            </CardDescription>
          </CardHeader>
          <CardContent>
            {roleAllows(role, "developer") ? (
              <CreateApiKey twoFactor={member.totpEnabledAt !== null} grantable={scopesOfRole(role)} />
            ) : (
              <RoleNote role={role} permission="developer" />
            )}
          </CardContent>
        </Card>
        {keys.length === 0 ? (
          <EmptyState
            icon={KeyRound}
            title="No API keys yet"
            description="Create one above, store it in your shop's server configuration, and create your first payment."
          />
        ) : (
          <Card className="min-w-0">
            <CardContent className="p-2 sm:p-3">
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>Name</TableHead>
                    <TableHead>Key</TableHead>
                    <TableHead className="hidden sm:table-cell">Scopes</TableHead>
                    <TableHead className="hidden md:table-cell">Created by</TableHead>
                    <TableHead className="hidden lg:table-cell">Created</TableHead>
                    <TableHead className="hidden sm:table-cell">Last used</TableHead>
                    <TableHead>
                      <span className="sr-only">Actions</span>
                    </TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {keys.map((k) => (
                    <TableRow key={k.id} data-key-name={k.name}>
                      <TableCell className="font-medium">{k.name}</TableCell>
                      <TableCell>
                        <div className="grid justify-items-start gap-1">
                          <span className="font-mono text-xs break-all">{k.prefix}…</span>
                          <Badge variant="neutral">{k.kind === "publishable" ? "publishable" : "secret"}</Badge>
                          {/* Phones: the scopes under the key, their column is hidden; below md the maker's too. */}
                          <ScopeList scopes={k.scopes} label={`Scopes of ${k.name}`} className="sm:hidden" />
                          <span className="text-xs text-muted-foreground [overflow-wrap:anywhere] md:hidden">by {maker(k)}</span>
                          <KeyChange k={k} maker={maker(k)} className="sm:hidden" />
                        </div>
                      </TableCell>
                      <TableCell className="hidden sm:table-cell">
                        <div className="grid gap-1">
                          <ScopeList scopes={k.scopes} label={`Scopes of ${k.name}`} />
                          <KeyChange k={k} maker={maker(k)} />
                        </div>
                      </TableCell>
                      <TableCell className="hidden [overflow-wrap:anywhere] md:table-cell" data-testid="key-maker">
                        {maker(k)}
                      </TableCell>
                      <TableCell className="hidden text-muted-foreground lg:table-cell">{formatDateTime(k.createdAt)}</TableCell>
                      <TableCell className="hidden text-muted-foreground sm:table-cell">
                        {k.lastUsedAt ? formatDateTime(k.lastUsedAt) : "never"}
                      </TableCell>
                      <TableCell className="text-right">
                        {k.revokedAt ? (
                          <Badge variant="neutral">revoked</Badge>
                        ) : (
                          roleAllows(role, "developer") && <RevokeApiKey id={k.id} name={k.name} />
                        )}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </CardContent>
          </Card>
        )}
      </div>
    </>
  );
}

/** What the maker's membership did to the key: revoked when they left, or scopes taken when their role shrank. */
function KeyChange({ k, maker, className }: { k: ApiKeyView; maker: string; className?: string }) {
  let words: string | null = null;
  if (k.revokedAt && k.revokedReason === "member-removed")
    words = `Revoked ${formatDateTime(k.revokedAt)}, when ${maker === "you" ? "you were" : `${maker} was`} removed from the account.`;
  else if (k.revokedAt && k.revokedReason === "role-reduced")
    words = `Revoked ${formatDateTime(k.revokedAt)}: ${maker === "you" ? "your" : `${maker}'s`} new role left it no scope.`;
  else if (!k.revokedAt && k.scopesReduced)
    words = `Reduced ${formatDateTime(k.scopesReduced.at)} from ${k.scopesReduced.from.join(", ")}, when ${maker === "you" ? "your" : `${maker}'s`} role changed.`;
  if (!words) return null;
  return (
    <p className={cn("text-xs text-muted-foreground [overflow-wrap:anywhere] sm:max-w-64", className)} data-testid="key-change">
      {words}
    </p>
  );
}

function ScopeList({ scopes, label, className }: { scopes: readonly string[]; label: string; className?: string }) {
  return (
    <ul className={cn("grid gap-0.5 font-mono text-xs break-all", className)} aria-label={label}>
      {scopes.map((scope) => (
        <li key={scope}>{scope}</li>
      ))}
    </ul>
  );
}
