/**
 * "14:03:15 UTC": retries come seconds apart, which the dashboard's minute-precision format would
 * hide. Sliced from the ISO text (always UTC) so the server and the browser render the same.
 */
export function formatTime(iso: string): string {
  return `${iso.slice(11, 19)} UTC`;
}

export function fullDateTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}
