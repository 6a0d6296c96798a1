/**
 * Sets the theme class before the first paint, from the saved choice or the system's, so a page
 * never flashes the wrong theme. <html> carries suppressHydrationWarning for this one attribute.
 */
const SCRIPT = `(function(){try{var t=localStorage.getItem("theme")||"system";var d=t==="dark"||(t==="system"&&matchMedia("(prefers-color-scheme: dark)").matches);var c=document.documentElement.classList;d?c.add("dark"):c.remove("dark")}catch(e){}})()`;

export function ThemeScript() {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script (no input in it) that sets the theme before the first paint
  return <script dangerouslySetInnerHTML={{ __html: SCRIPT }} />;
}
