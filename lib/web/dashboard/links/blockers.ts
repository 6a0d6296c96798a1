/** What stops a payment link from being created, with the page that fixes it. */
export const LINK_BLOCKERS = {
  plan: {
    text: "Choose a plan first: payments made through a link count in it like any other.",
    href: "/dashboard/plan",
    link: "Choose a plan",
  },
  token: { text: "Register a token first: it is what your customers pay with.", href: "/dashboard/tokens", link: "Register a token" },
  domain: { text: "Add your shop's domain first: its wallet receives the payments.", href: "/dashboard/domains", link: "Add a domain" },
} as const;

export function linkBlockers(keys: readonly (keyof typeof LINK_BLOCKERS)[]) {
  return keys.map((key) => ({ key, ...LINK_BLOCKERS[key] }));
}
