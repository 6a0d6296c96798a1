"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { toast } from "sonner";
import { ConfirmAction } from "@/components/dashboard/confirm-action";
import { Button } from "@/components/ui/button";
import { NativeSelect } from "@/components/ui/input";
import type { MemberRole } from "@/lib/accounts/members/roles";
import { changeRoleAction, removeMemberAction, revokeInvitationAction } from "@/lib/web/dashboard/members/actions";
import { ROLE_WORDS } from "./role-words";

/** The owner changes a member's role in place. */
export function RoleSelect({ userId, email, role }: { userId: number; email: string; role: Exclude<MemberRole, "owner"> }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <NativeSelect
      aria-label={`Role of ${email}`}
      defaultValue={role}
      disabled={pending}
      className="h-8 w-36"
      data-testid="member-role"
      onChange={(event) => {
        const next = event.currentTarget.value;
        start(async () => {
          const result = await changeRoleAction({ userId, role: next });
          if (!result.ok) toast.error(result.error);
          else toast.success(`${email} is now ${ROLE_WORDS[result.data.role].label.toLowerCase()}.`);
          router.refresh();
        });
      }}
    >
      {(["admin", "finance", "developer", "viewer"] as const).map((r) => (
        <option key={r} value={r}>
          {ROLE_WORDS[r].label}
        </option>
      ))}
    </NativeSelect>
  );
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/**
 * Removes a member after saying what goes with them: the API keys and open invitations they made
 * in this account are revoked with the removal (docs/design.md §26).
 */
export function RemoveMember({
  userId,
  email,
  apiKeys,
  invitations,
}: {
  userId: number;
  email: string;
  apiKeys: number;
  invitations: number;
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const remove = () =>
    start(async () => {
      const result = await removeMemberAction(userId);
      if (!result.ok) toast.error(result.error);
      else {
        const { apiKeysRevoked, invitationsRevoked } = result.data;
        const revoked = [
          apiKeysRevoked ? plural(apiKeysRevoked, "API key") : null,
          invitationsRevoked ? plural(invitationsRevoked, "invitation") : null,
        ]
          .filter(Boolean)
          .join(" and ");
        toast.success(revoked ? `${email} was removed; ${revoked} revoked.` : `${email} was removed.`);
      }
      router.refresh();
    });
  const consequence =
    apiKeys + invitations === 0
      ? "They made no live API key or open invitation here."
      : `This also revokes ${plural(apiKeys, "API key")} and ${plural(invitations, "invitation")} they made: requests with those keys fail at once.`;
  return (
    <ConfirmAction
      trigger={
        <Button
          variant="ghost"
          size="sm"
          className="text-destructive hover:text-destructive"
          disabled={pending}
          aria-label={`Remove ${email}`}
        >
          Remove
        </Button>
      }
      title={<>Remove {email}?</>}
      description={
        <>
          They lose this account at once, on every device and bearer token. <span data-testid="removal-consequence">{consequence}</span>{" "}
          Their own sign-in and other accounts stay.
        </>
      }
      cancel="Keep them"
      confirm="Remove member"
      onConfirm={remove}
    />
  );
}

export function RevokeInvitation({ invitationId }: { invitationId: number }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <Button
      variant="ghost"
      size="sm"
      disabled={pending}
      onClick={() =>
        start(async () => {
          const result = await revokeInvitationAction(invitationId);
          if (!result.ok) toast.error(result.error);
          else toast.success("Invitation revoked: the link no longer works.");
          router.refresh();
        })
      }
    >
      Revoke
    </Button>
  );
}
