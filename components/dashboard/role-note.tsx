import { Lock } from "lucide-react";
import { type MemberRole, PERMISSIONS, type Permission, rolesWith } from "@/lib/accounts/members/roles";

/** Stands where a form would be when the member's role may not use it: says who can. */
export function RoleNote({ role, permission }: { role: MemberRole; permission: Permission }) {
  return (
    <p className="flex items-start gap-2 text-sm text-muted-foreground" data-testid="role-note">
      <Lock className="mt-0.5 size-4 shrink-0" aria-hidden />
      <span>
        Your role ({role}) cannot {PERMISSIONS[permission]}. Ask someone with the {rolesWith(permission).join(", ")} role.
      </span>
    </p>
  );
}
