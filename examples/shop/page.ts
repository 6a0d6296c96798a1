/**
 * page.html's {{NAME}} placeholders filled in, each value HTML-escaped: a token's symbol comes from
 * its contract (anyone's text). A function replaces them: a string replacement would read "$&" in
 * a value as a pattern.
 */
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

export function fillPage(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`the page names {{${name}}}, which the server does not fill in`);
    return escapeHtml(value);
  });
}
