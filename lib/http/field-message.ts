/**
 * A refusal shown under its input, in the form's words: the API's messages name their field
 * ("redirectUrl must be an http(s) URL"), which the input's label already does on a page.
 */
export function besideItsField(path: string, message: string): string {
  const field = path.split(".").at(-1) ?? path;
  const rest = message.startsWith(`${field} `) ? message.slice(field.length + 1) : message;
  const sentence = rest.charAt(0).toUpperCase() + rest.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}
