CREATE INDEX "deposits_network_created_idx" ON "deposits" USING btree ("network","created_at");
