/**
 * A field's message shown under its input (a schema's issue, or an error's detail: both carry the
 * field's path): the API's schemas name their field ("redirectUrl must be an http(s) URL"), which
 * the input's label already does on a page. Never used to find which field a refusal is about:
 * that is its reason's (docs/design.md §22).
 */
export function besideItsField(path: string, message: string): string {
  const field = path.split(".").at(-1) ?? path;
  const rest = message.startsWith(`${field} `) ? message.slice(field.length + 1) : message;
  return asSentence(rest);
}

/** A lib message (lower case, no stop) as a sentence on a page. */
export function asSentence(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
