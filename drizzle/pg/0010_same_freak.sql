CREATE TABLE "log_captures" (
	"log_id" integer PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" bigint NOT NULL,
	"method" varchar(16) DEFAULT '' NOT NULL,
	"path" text DEFAULT '' NOT NULL,
	"request_headers" text DEFAULT '{}' NOT NULL,
	"request_body" text DEFAULT '' NOT NULL,
	"request_size" bigint DEFAULT 0 NOT NULL,
	"response_status" integer DEFAULT 0 NOT NULL,
	"response_body" text DEFAULT '' NOT NULL,
	"response_size" bigint DEFAULT 0 NOT NULL,
	"is_stream" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "capture_until" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "capture_until" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "log_captures" ADD CONSTRAINT "log_captures_log_id_logs_id_fk" FOREIGN KEY ("log_id") REFERENCES "public"."logs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "log_captures_created_index" ON "log_captures" USING btree ("created_at");