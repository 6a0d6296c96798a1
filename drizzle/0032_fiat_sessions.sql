-- Fiat-priced sessions (DESIGN.md §23): the price in a currency's minor units, the rate of the token the
-- payer is asked for now (token_id/amount), and when the payer chose it on the checkout page.
ALTER TABLE "payment_sessions" ADD COLUMN "currency" text;--> statement-breakpoint
ALTER TABLE "payment_sessions" ADD COLUMN "fiat_amount" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "payment_sessions" ADD COLUMN "rate" text;--> statement-breakpoint
ALTER TABLE "payment_sessions" ADD COLUMN "token_chosen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_sessions" ADD CONSTRAINT "payment_sessions_fiat_check" CHECK (("currency" IS NULL) = ("fiat_amount" IS NULL));--> statement-breakpoint
-- One locked quote per token a fiat session offers, in the order offered.
CREATE TABLE "session_quotes" (
	"session_id" uuid NOT NULL,
	"token_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"rate" text NOT NULL,
	"source" text NOT NULL,
	"off_peg" boolean DEFAULT false NOT NULL,
	"quoted_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "session_quotes_session_id_token_id_pk" PRIMARY KEY("session_id","token_id")
);--> statement-breakpoint
ALTER TABLE "session_quotes" ADD CONSTRAINT "session_quotes_session_id_payment_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."payment_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_quotes" ADD CONSTRAINT "session_quotes_token_id_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."tokens"("id") ON DELETE no action ON UPDATE no action;
