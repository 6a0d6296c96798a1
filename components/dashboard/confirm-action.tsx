"use client";

import type { ReactNode } from "react";
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
import { buttonVariants } from "@/components/ui/button";

/**
 * An action asked for twice: the trigger opens a dialog that says what the action does, and only
 * its destructive button runs `onConfirm` (the cancel button, Escape or a click outside change nothing).
 */
export function ConfirmAction({
  trigger,
  title,
  description,
  children,
  cancel,
  confirm,
  onConfirm,
}: {
  /** The button that opens the dialog (it becomes the trigger itself). */
  trigger: ReactNode;
  title: ReactNode;
  description: ReactNode;
  /** Between the words and the buttons: a choice that changes what the action does. */
  children?: ReactNode;
  /** The cancel button's words ("Keep it"). */
  cancel: ReactNode;
  /** The confirm button's words ("Revoke key"). */
  confirm: ReactNode;
  onConfirm: () => void;
}) {
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {children}
        <AlertDialogFooter>
          <AlertDialogCancel>{cancel}</AlertDialogCancel>
          <AlertDialogAction className={buttonVariants({ variant: "destructive" })} onClick={onConfirm}>
            {confirm}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
