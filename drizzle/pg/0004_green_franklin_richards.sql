ALTER TABLE "midjourneys" ADD COLUMN "token_id" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "midjourneys" ADD COLUMN "request_id" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "midjourneys" ADD COLUMN "refunded" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "midjourneys" ADD COLUMN "notify_hook" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "token_id" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "request_id" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "refunded" boolean DEFAULT false NOT NULL;