import { Users } from "lucide-react";
import type { Metadata } from "next";
import { EmptyState } from "@/components/dashboard/empty-state";
import { formatDateTime } from "@/components/dashboard/format";
import { PageHeader } from "@/components/dashboard/page-header";
import { RoleNote } from "@/components/dashboard/role-note";
import { InviteMember } from "@/components/members/invite-member";
import { RemoveMember, RevokeInvitation, RoleSelect } from "@/components/members/member-actions";
import { ROLE_WORDS } from "@/components/members/role-words";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { listInvitations } from "@/lib/accounts/members/invitations";
import { listMembers, type RemovalEffects, removalEffects } from "@/lib/accounts/members/manage-members";
import { roleAllows } from "@/lib/accounts/members/roles";
import { withAccountPage } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage() {
  const { members, invitations, role, memberId, effects } = await withAccountPage("read", async ({ db, account, member, role }) => {
    const members = await listMembers(db, account.id);
    const manages = roleAllows(role, "members");
    return {
      members,
      invitations: manages ? (await listInvitations(db, account.id)).filter((i) => i.status === "pending") : [],
      role,
      memberId: member.id,
      // What removing each would revoke with them, said in the removal's dialog.
      effects: manages
        ? await removalEffects(
            db,
            account.id,
            members.map((m) => m.userId),
          )
        : new Map<number, RemovalEffects>(),
    };
  });
  const manages = roleAllows(role, "members");
  return (
    <>
      <PageHeader
        title="Members"
        description="Everyone who signs in to this account, each with their own password and two-factor, and what their role lets them do."
      />
      <div className="grid gap-6">
        <Card className="min-w-0">
          <CardHeader>
            <CardTitle>Invite someone</CardTitle>
            <CardDescription>
              The link works once, for 72 hours. Whoever opens it signs in or creates a login, then joins with the role you chose.
            </CardDescription>
          </CardHeader>
          <CardContent>{manages ? <InviteMember /> : <RoleNote role={role} permission="members" />}</CardContent>
        </Card>
        <Card className="min-w-0">
          <CardHeader>
            <CardTitle>Team</CardTitle>
            <CardDescription>{members.length === 1 ? "Only you so far." : `${members.length} members.`}</CardDescription>
          </CardHeader>
          <CardContent className="p-2 sm:p-3">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Member</TableHead>
                  <TableHead>Role</TableHead>
                  <TableHead className="hidden md:table-cell">Two-factor</TableHead>
                  <TableHead className="hidden sm:table-cell">Joined</TableHead>
                  <TableHead>
                    <span className="sr-only">Actions</span>
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {members.map((m) => (
                  <TableRow key={m.userId} data-member={m.email}>
                    <TableCell className="font-medium [overflow-wrap:anywhere]">
                      {m.email}
                      {m.userId === memberId && <span className="ml-1.5 text-xs font-normal text-muted-foreground">(you)</span>}
                    </TableCell>
                    <TableCell>
                      {manages && m.role !== "owner" ? (
                        <RoleSelect userId={m.userId} email={m.email} role={m.role} />
                      ) : (
                        <Badge variant={m.role === "owner" ? "success" : "neutral"} title={ROLE_WORDS[m.role].can}>
                          {ROLE_WORDS[m.role].label}
                        </Badge>
                      )}
                    </TableCell>
                    <TableCell className="hidden md:table-cell">
                      {m.twoFactor ? <Badge variant="success">on</Badge> : <Badge variant="warning">off</Badge>}
                    </TableCell>
                    <TableCell className="hidden text-muted-foreground sm:table-cell">{formatDateTime(m.joinedAt)}</TableCell>
                    <TableCell className="text-right">
                      {manages && m.role !== "owner" && (
                        <RemoveMember
                          userId={m.userId}
                          email={m.email}
                          apiKeys={effects.get(m.userId)?.apiKeysRevoked ?? 0}
                          invitations={effects.get(m.userId)?.invitationsRevoked ?? 0}
                        />
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </CardContent>
        </Card>
        {manages &&
          (invitations.length === 0 ? (
            <EmptyState
              icon={Users}
              title="No invitations waiting"
              description="Links you create appear here until they are used, revoked or expire."
            />
          ) : (
            <Card className="min-w-0">
              <CardHeader>
                <CardTitle>Waiting invitations</CardTitle>
              </CardHeader>
              <CardContent className="p-2 sm:p-3">
                <Table>
                  <TableHeader>
                    <TableRow>
                      <TableHead>For</TableHead>
                      <TableHead>Role</TableHead>
                      <TableHead className="hidden sm:table-cell">Expires</TableHead>
                      <TableHead>
                        <span className="sr-only">Actions</span>
                      </TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {invitations.map((i) => (
                      <TableRow key={i.invitationId} data-invitation={i.invitationId}>
                        <TableCell className="max-w-48 break-all">{i.note ?? <span className="text-muted-foreground">—</span>}</TableCell>
                        <TableCell>{ROLE_WORDS[i.role].label}</TableCell>
                        <TableCell className="hidden text-muted-foreground sm:table-cell">{formatDateTime(i.expiresAt)}</TableCell>
                        <TableCell className="text-right">
                          <RevokeInvitation invitationId={i.invitationId} />
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </CardContent>
            </Card>
          ))}
        <Card>
          <CardHeader>
            <CardTitle>What each role can do</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-3 text-sm sm:grid-cols-[8rem_1fr]">
              {(Object.keys(ROLE_WORDS) as (keyof typeof ROLE_WORDS)[]).map((r) => (
                <div key={r} className="contents">
                  <dt className="font-medium">{ROLE_WORDS[r].label}</dt>
                  <dd className="text-muted-foreground">{ROLE_WORDS[r].can}</dd>
                </div>
              ))}
            </dl>
          </CardContent>
        </Card>
      </div>
    </>
  );
}
