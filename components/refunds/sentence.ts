/** "the wallet holds too little…" → "The wallet holds too little…" (lib's messages and a refund's recorded reason are sentence tails). */
export function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
