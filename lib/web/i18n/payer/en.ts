/** The refund claim page's and the payment link page's English strings: the reference every other language follows ({placeholders} are filled at render). */

export interface PayerPageMessages {
  language: string;
  refundFrom: string;
  refund: string;
  order: string;
  addressLabel: string;
  addressHelp: string;
  senderHint: string;
  senderWarning: string;
  useSender: string;
  useWallet: string;
  invalidAddress: string;
  zeroAddress: string;
  serviceAddress: string;
  /** The merchant's side cannot send it now (its wallet, budget, the network): never the internals. */
  claimUnavailable: string;
  submit: string;
  submitting: string;
  claimBy: string;
  sendingTitle: string;
  sendingBody: string;
  /** Claimed, but the merchant's wallet cannot pay it yet: it goes out by itself (never the internals). */
  awaitingFundsTitle: string;
  awaitingFundsBody: string;
  /** Claimed above the shop's approval threshold: a second person at the shop confirms the address first. */
  awaitingApprovalTitle: string;
  awaitingApprovalBody: string;
  completedTitle: string;
  completedBody: string;
  failedTitle: string;
  cancelledTitle: string;
  unavailableBody: string;
  viewTransaction: string;
  sentTo: string;
  /** Once the refund is sent: its transaction hash, whole, and when it was sent. */
  transactionLabel: string;
  sentAtLabel: string;
  linkPay: string;
  linkPaying: string;
  linkAmount: string;
  linkMinimum: string;
  linkInactiveTitle: string;
  linkInactiveBody: string;
  /** Pay answered 429: the link has its cap of open payments, or this client pressed Pay too often. */
  linkBusyTitle: string;
  linkBusyBody: string;
  /** A refused Pay, by reason (lib/web/i18n/refund-messages.ts linkRefusalMessage). */
  linkAmountMissing: string;
  linkAmountInvalid: string;
  linkAmountTooSmall: string;
  /** The merchant's side cannot take a payment now (its package, domain, token): never the internals. */
  linkUnavailable: string;
  paying: string;
}

export const en: PayerPageMessages = {
  language: "Language",
  refundFrom: "Refund from {merchant}",
  refund: "Refund",
  order: "Order {order}",
  addressLabel: "Your BNB Smart Chain (BEP-20) address",
  addressHelp:
    "Use an address you control on BNB Smart Chain. Tokens sent to another network, or to an exchange address that does not accept this token, are lost.",
  senderHint: "The payment came from this address:",
  senderWarning: "If it is an exchange or a wallet you do not control, do not use it.",
  useSender: "Use this address",
  useWallet: "Use my wallet's address",
  invalidAddress: "Enter a BNB Smart Chain address: 0x followed by 40 characters.",
  zeroAddress: "This address cannot receive tokens: whatever is sent to it is burnt. Enter your own address.",
  serviceAddress: "This address belongs to the payment service, not to you. Enter the address of your own wallet.",
  claimUnavailable: "Your refund cannot be sent right now, and nothing was sent. Try again later, or contact the shop.",
  submit: "Send my refund",
  submitting: "Sending…",
  claimBy: "Give your address by {date}",
  sendingTitle: "Your refund is on its way",
  sendingBody: "It usually arrives within a minute. This page updates by itself.",
  awaitingFundsTitle: "Your refund is waiting to be sent",
  awaitingFundsBody:
    "The shop's wallet cannot send it yet. It goes out by itself as soon as it can: you do not need to do anything. This page updates by itself.",
  awaitingApprovalTitle: "Your refund is waiting for the shop",
  awaitingApprovalBody:
    "The shop confirms this refund to your address before it is sent; you do not need to do anything. This page updates by itself.",
  completedTitle: "Refund sent",
  completedBody: "The tokens are in your wallet.",
  failedTitle: "This refund could not be sent",
  cancelledTitle: "This refund is no longer available",
  unavailableBody: "Contact the shop for a new one.",
  viewTransaction: "View transaction",
  sentTo: "Sent to",
  transactionLabel: "Transaction",
  sentAtLabel: "Date sent",
  linkPay: "Pay",
  linkPaying: "Opening the payment…",
  linkAmount: "Amount ({token})",
  linkMinimum: "At least {amount} {token}",
  linkInactiveTitle: "This payment link is no longer active",
  linkInactiveBody: "Ask the seller for a new link.",
  linkBusyTitle: "This payment link is busy",
  linkBusyBody: "Please try again in a minute.",
  linkAmountMissing: "Enter how much you want to pay.",
  linkAmountInvalid: "Enter an amount such as 10.5: digits and at most one dot.",
  linkAmountTooSmall: "This amount is below the smallest payment this link takes.",
  linkUnavailable: "This payment link cannot take payments right now. Try again later, or contact the seller.",
  paying: "Paying {merchant}",
};
