"use client";

import { Toaster as Sonner } from "sonner";

/** Toasts after actions; follows the page's theme class. */
export function Toaster() {
  return <Sonner position="bottom-right" richColors closeButton toastOptions={{ classNames: { toast: "font-sans" } }} theme="system" />;
}
