/** The checkout's countdown: its text, its colour and how much of the session's time is left. */

export type TimeTone = "normal" | "warning" | "danger";

/** Amber under 5 minutes, red under 1. */
export const WARNING_BELOW_SECONDS = 5 * 60;
export const DANGER_BELOW_SECONDS = 60;

export function timeTone(secondsLeft: number): TimeTone {
  if (secondsLeft < DANGER_BELOW_SECONDS) return "danger";
  if (secondsLeft < WARNING_BELOW_SECONDS) return "warning";
  return "normal";
}

/** "4:05", or "1:02:03" from an hour up; never negative. */
export function formatTimeLeft(secondsLeft: number): string {
  const s = Math.max(0, Math.floor(secondsLeft));
  const pad = (n: number) => String(n).padStart(2, "0");
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(s % 60)}` : `${minutes}:${pad(s % 60)}`;
}

/** The share of the session's lifetime still left, 0–1 (1 for a session with no lifetime to measure). */
export function fractionLeft(createdAt: string, expiresAt: string, now: number): number {
  const total = Date.parse(expiresAt) - Date.parse(createdAt);
  if (!(total > 0)) return 1;
  return Math.min(1, Math.max(0, (Date.parse(expiresAt) - now) / total));
}
