/** Every string of the hosted checkout page, per language: one file per language in checkout/. */

import { type CheckoutMessages, en } from "./checkout/en";
import { es } from "./checkout/es";
import { ru } from "./checkout/ru";
import { tr } from "./checkout/tr";
import { vi } from "./checkout/vi";
import { zh } from "./checkout/zh";
import type { Locale } from "./locale";

export type { CheckoutMessages };

export const CHECKOUT_MESSAGES: Record<Locale, CheckoutMessages> = { en, zh, vi, ru, tr, es };
