"use client";

import { LogOut } from "lucide-react";
import { signOut } from "next-auth/react";
import { useTransition } from "react";
import { toast } from "sonner";
import { signOutEverywhereAction } from "@/app/_actions/account";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button, buttonVariants } from "@/components/ui/button";

/** Ends every dashboard session and bearer token of the account, this browser's included. */
export function SignOutEverywhere() {
  const [pending, start] = useTransition();
  const confirm = () =>
    start(async () => {
      const result = await signOutEverywhereAction();
      if (!result.ok) {
        toast.error(result.error);
        return;
      }
      await signOut({ callbackUrl: "/login" });
    });
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="outline" disabled={pending} className="justify-self-start">
          <LogOut aria-hidden /> Sign out everywhere
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Sign out everywhere?</AlertDialogTitle>
          <AlertDialogDescription>
            Every browser signed in to this account, this one included, is signed out, and every bearer token of the user API stops working.
            API keys are not affected.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Stay signed in</AlertDialogCancel>
          <AlertDialogAction className={buttonVariants({ variant: "destructive" })} onClick={confirm}>
            Sign out everywhere
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
