import { ShieldCheck } from "lucide-react";
import type { Metadata } from "next";
import { PolicyForm } from "@/components/approvals/approval-actions";
import { age, Destination, decider, KIND_WORDS, requester, STATUS_WORDS } from "@/components/approvals/approval-fields";
import { ApproverWarningNote } from "@/components/approvals/approver-warning";
import { WaitingActions } from "@/components/approvals/waiting-actions";
import { EmptyState } from "@/components/dashboard/empty-state";
import { Amount, formatDateTime } from "@/components/dashboard/format";
import { PageHeader } from "@/components/dashboard/page-header";
import { RoleNote } from "@/components/dashboard/role-note";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { roleAllows } from "@/lib/accounts/members/roles";
import { getApprovalPolicies } from "@/lib/domain/approval-requests/policies";
import { accountApprovers, someoneCanApprove } from "@/lib/domain/approvals/approvers";
import { listApprovals } from "@/lib/domain/approvals/inbox";
import { approverWarning } from "@/lib/web/dashboard/approvals/approval-words";
import { withAccountPage } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "Approvals" };

export default async function ApprovalsPage() {
  const data = await withAccountPage("read", async ({ db, account, member, role }) => ({
    awaiting: (await listApprovals(db, account.id, { status: "awaiting_approval", limit: 100 })).items,
    decided: (await listApprovals(db, account.id, { limit: 50 })).items.filter((a) => a.status !== "awaiting_approval"),
    policies: await getApprovalPolicies(db, account.id),
    approvers: await accountApprovers(db, account.id),
    role,
    memberId: member.id,
    memberHasTwoFactor: member.totpEnabledAt !== null,
  }));
  const { awaiting, decided, policies, role, memberId, approvers } = data;
  const warning = approverWarning(approvers, memberId);
  const approves = roleAllows(role, "approve");
  const now = Date.now();
  return (
    <>
      <PageHeader
        title="Approvals"
        description="Withdrawals, refunds and payouts above your thresholds wait here until a second member approves them with a two-factor code."
      />
      <div className="grid gap-6">
        <Card className="min-w-0">
          <CardHeader>
            <CardTitle>Waiting for approval</CardTitle>
            <CardDescription>
              {approves
                ? data.memberHasTwoFactor
                  ? "Approve with the code from your authenticator app. You cannot approve what you asked for yourself."
                  : "Approving needs a two-factor code: turn two-factor authentication on in Settings first."
                : "Members with the finance, admin or owner role approve these."}
            </CardDescription>
          </CardHeader>
          <CardContent className="p-2 sm:p-3">
            {awaiting.length === 0 ? (
              <EmptyState
                icon={ShieldCheck}
                title="Nothing waits for approval"
                description="Money out above your thresholds shows up here."
              />
            ) : (
              <Table data-testid="awaiting-approvals">
                <TableHeader>
                  <TableRow>
                    <TableHead>Amount</TableHead>
                    <TableHead className="hidden sm:table-cell">Kind</TableHead>
                    <TableHead className="hidden sm:table-cell">Goes to</TableHead>
                    <TableHead className="hidden md:table-cell">Asked by</TableHead>
                    <TableHead className="hidden sm:table-cell">Waiting</TableHead>
                    <TableHead className="hidden lg:table-cell">Expires</TableHead>
                    <TableHead>
                      <span className="sr-only">Actions</span>
                    </TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {awaiting.map((a) => {
                    const own = a.requestedBy?.userId === memberId;
                    return (
                      <TableRow key={a.approvalId} data-approval={a.approvalId}>
                        <TableCell className="font-medium">
                          <div className="grid gap-1">
                            <Amount value={a.amount} symbol={a.token} />
                            {/* Phones: kind, wait, destination and requester under the amount, their columns hidden. */}
                            <span className="text-xs font-normal text-muted-foreground sm:hidden">
                              {KIND_WORDS[a.kind]} · <span className="whitespace-nowrap">waiting {age(a.createdAt, now)}</span>
                            </span>
                            <span className="font-normal sm:hidden">
                              <Destination a={a} />
                            </span>
                            <span className="text-xs font-normal text-muted-foreground [overflow-wrap:anywhere] md:hidden">
                              Asked by {requester(a)}
                            </span>
                          </div>
                        </TableCell>
                        <TableCell className="hidden sm:table-cell">{KIND_WORDS[a.kind]}</TableCell>
                        <TableCell className="hidden sm:table-cell">
                          <Destination a={a} />
                        </TableCell>
                        <TableCell className="hidden max-w-48 break-all md:table-cell">{requester(a)}</TableCell>
                        <TableCell className="hidden sm:table-cell">{age(a.createdAt, now)}</TableCell>
                        <TableCell className="hidden lg:table-cell">{formatDateTime(a.expiresAt)}</TableCell>
                        <TableCell>
                          {approves && (
                            <WaitingActions
                              approvalId={a.approvalId}
                              own={own}
                              viewerHasTwoFactor={data.memberHasTwoFactor}
                              someoneElseCanApprove={someoneCanApprove(approvers, a.requestedBy?.userId ?? null)}
                              what={`${a.amount} ${a.token}`}
                              contentHash={a.contentHash}
                              details={<Destination a={a} full />}
                            />
                          )}
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            )}
          </CardContent>
        </Card>
        <Card className="min-w-0">
          <CardHeader>
            <CardTitle>Decided</CardTitle>
            <CardDescription>
              The latest 50: approved ones went out like any withdrawal or refund; rejected and expired ones never did.
            </CardDescription>
          </CardHeader>
          <CardContent className="p-2 sm:p-3">
            {decided.length === 0 ? (
              <p className="px-2 py-4 text-sm text-muted-foreground">Nothing decided yet.</p>
            ) : (
              <Table data-testid="decided-approvals">
                <TableHeader>
                  <TableRow>
                    <TableHead>Amount</TableHead>
                    <TableHead className="hidden sm:table-cell">Kind</TableHead>
                    <TableHead>Status</TableHead>
                    <TableHead className="hidden md:table-cell">Asked by</TableHead>
                    <TableHead className="hidden md:table-cell">Decided by</TableHead>
                    <TableHead className="hidden sm:table-cell">When</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {decided.map((a) => (
                    <TableRow key={a.approvalId} data-approval={a.approvalId}>
                      <TableCell className="font-medium">
                        <div className="grid gap-1">
                          <Amount value={a.amount} symbol={a.token} />
                          {/* Phones: kind, who and when under the amount, their columns hidden. */}
                          <span className="text-xs font-normal text-muted-foreground sm:hidden">{KIND_WORDS[a.kind]}</span>
                          <span className="text-xs font-normal text-muted-foreground [overflow-wrap:anywhere] md:hidden">
                            Asked by {requester(a)}
                          </span>
                          <span className="text-xs font-normal text-muted-foreground [overflow-wrap:anywhere] md:hidden">
                            Decided by {decider(a)}
                          </span>
                          {a.decidedAt && (
                            <span className="text-xs font-normal whitespace-nowrap text-muted-foreground sm:hidden">
                              {formatDateTime(a.decidedAt)}
                            </span>
                          )}
                        </div>
                      </TableCell>
                      <TableCell className="hidden sm:table-cell">{KIND_WORDS[a.kind]}</TableCell>
                      <TableCell>
                        <Badge variant={a.status === "approved" ? "success" : "neutral"} title={a.reason ?? undefined}>
                          {STATUS_WORDS[a.status]}
                        </Badge>
                      </TableCell>
                      <TableCell className="hidden max-w-48 break-all md:table-cell">{requester(a)}</TableCell>
                      <TableCell className="hidden max-w-48 break-all md:table-cell">{decider(a)}</TableCell>
                      <TableCell className="hidden sm:table-cell">{a.decidedAt ? formatDateTime(a.decidedAt) : "—"}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </CardContent>
        </Card>
        <Card className="min-w-0">
          <CardHeader>
            <CardTitle>Approval thresholds</CardTitle>
            <CardDescription>
              Per token: a withdrawal, refund or payout above the per-request amount, or one that takes the day's money out (UTC) above the
              per-day amount, waits for a second member. Empty: no limit.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-6">
            {!roleAllows(role, "payout-targets") ? (
              <>
                <RoleNote role={role} permission="payout-targets" />
                <ul className="grid gap-1 text-sm">
                  {policies.map((p) => (
                    <li key={p.tokenId}>
                      {p.token}: {p.perRequest ? `${p.perRequest} per request` : "no per-request limit"},{" "}
                      {p.perDay ? `${p.perDay} per day` : "no per-day limit"}
                    </li>
                  ))}
                </ul>
              </>
            ) : policies.length === 0 ? (
              <p className="text-sm text-muted-foreground">Add a token first.</p>
            ) : (
              <>
                {warning && <ApproverWarningNote warning={warning} />}
                {policies.map((p) => (
                  <PolicyForm
                    key={p.tokenId}
                    tokenId={p.tokenId}
                    token={p.token}
                    perRequest={p.perRequest}
                    perDay={p.perDay}
                    needsCode={data.memberHasTwoFactor}
                  />
                ))}
              </>
            )}
          </CardContent>
        </Card>
      </div>
    </>
  );
}
