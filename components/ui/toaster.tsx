"use client";

import { useEffect, useState } from "react";
import { Toaster as Sonner } from "sonner";

/** Toasts after actions, in the page's theme (the class on <html>, which the theme toggle sets). */
export function Toaster() {
  const [theme, setTheme] = useState<"light" | "dark">("light");
  useEffect(() => {
    const root = document.documentElement;
    const read = () => setTheme(root.classList.contains("dark") ? "dark" : "light");
    read();
    const observer = new MutationObserver(read);
    observer.observe(root, { attributes: true, attributeFilter: ["class"] });
    return () => observer.disconnect();
  }, []);
  return <Sonner position="bottom-right" richColors closeButton theme={theme} toastOptions={{ classNames: { toast: "font-sans" } }} />;
}
