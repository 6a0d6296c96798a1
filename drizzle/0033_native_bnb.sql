-- BNB itself as a catalogue token (issue 35, DESIGN.md §23): the native coin has no contract, so it takes
-- the conventional native address (lib/engine/chain/native.ts). Seeded enabled; the scanner reads blocks
-- for it only while a merchant on the network accepts it. Minimums: 0.001 BNB (a forward of less costs
-- a noticeable share of it in gas).
-- Mainnet's BNB/USD heartbeat is not confirmed (lib/engine/chain/price-feed-addresses.ts): without one BNB
-- has no fiat price until the operator sets it (npm run admin -- tokens feed bsc <native> <feed> --heartbeat N).
INSERT INTO "token_catalogue" ("network", "contract_address", "symbol", "name", "decimals", "min_forward_amount", "usd_feed", "feed_heartbeat_seconds", "added_by") VALUES
  ('bsc', '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', 'BNB', 'BNB', 18, 1000000000000000, '0x0567F2323251f0Aab15c8dFb1967E4e8A7D42aeE', NULL, 'seed'),
  ('local', '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', 'BNB', 'BNB', 18, 1000000000000000, '0x5E861c255a7DbE937d9ca1b23Cc3ccDa594458ad', 3600, 'seed')
ON CONFLICT DO NOTHING;
