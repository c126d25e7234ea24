ALTER TABLE "channels" ADD COLUMN "channel_info" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "logs" ADD COLUMN "ip" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "logs_ip_created_index" ON "logs" USING btree ("ip","created_at");