/** The withdrawals page's own words for what the chain did not tell it (pure: the send form uses them). */

/** The wallet's balance could not be read (the node failed or timed out): the form still works, the send checks the balance. */
export const BALANCE_UNKNOWN = "unknown right now (the network did not answer); the send checks it itself";
