/**
 * Sets the theme class before the first paint, from the saved choice or the system's, so a page
 * never flashes the wrong theme. <html> carries suppressHydrationWarning for this one attribute.
 */
const SCRIPT = `(function(){try{var t=localStorage.getItem("theme")||"system";var d=t==="dark"||(t==="system"&&matchMedia("(prefers-color-scheme: dark)").matches);var c=document.documentElement.classList;d?c.add("dark"):c.remove("dark")}catch(e){}})()`;

export function ThemeScript({ nonce }: { nonce?: string }) {
  // The browser hides a nonce from the DOM once read, so hydration sees "" where the server wrote it.
  return (
    // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script (no input in it) that sets the theme before the first paint
    <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: SCRIPT }} />
  );
}
