import type { components, paths } from "./generated/openapi.js";

type Schemas = components["schemas"];
type Json<R> = R extends { content: { "application/json": infer B } } ? B : never;
type SuccessBody<O> = O extends { responses: infer R } ? Json<R[Extract<keyof R, 200 | 201>]> : never;
/** The `data` of an operation's success envelope. */
export type ResponseData<O> = SuccessBody<O> extends { data: infer D } ? D : never;
export type RequestBody<O> = O extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;
export type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type PaymentSession = Schemas["PaymentSession"];
export type PaymentQuote = Schemas["PaymentQuote"];
export type PaymentStatus = Schemas["PaymentStatus"];
export type PaymentHistoryItem = Schemas["PaymentHistoryItem"];
export type CancelResult = Schemas["CancelResult"];
export type CreatePaymentParams = Schemas["CreatePaymentRequest"] | Schemas["CreateFiatPaymentRequest"];
export type Refund = Schemas["Refund"];
export type CreateRefundParams = Schemas["CreateRefundRequest"];
export type Withdrawal = Schemas["Withdrawal"];
export type SendWithdrawalParams = Schemas["SendWithdrawalRequest"];
export type PayoutBatch = Schemas["PayoutBatch"];
export type PayoutItem = Schemas["PayoutItem"];
export type CreatePayoutsParams = Schemas["CreatePayoutsRequest"];

type Get<P extends keyof paths> = NonNullable<paths[P]["get"]>;
export type PaymentHistoryQuery = Omit<QueryOf<Get<"/api/v1/payment/history">>, "cursor" | "page" | "limit"> & { limit?: number };
export type WithdrawalHistoryQuery = Omit<QueryOf<Get<"/api/v1/withdrawal/history">>, "cursor" | "page" | "limit"> & { limit?: number };
export type PayoutBatchSummary = ResponseData<Get<"/api/v1/payouts">>["items"][number];
export type PaymentRefunds = ResponseData<Get<"/api/v1/payment/{sessionId}/refunds">>;
