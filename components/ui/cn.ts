import { type ClassValue, clsx } from "clsx";
import { twMerge } from "tailwind-merge";

/** Class names, merged so a later Tailwind utility wins over an earlier one of the same kind. */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
