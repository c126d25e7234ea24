ALTER TABLE "tokens" ADD COLUMN "quota_period" varchar(8) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "period_quota" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "period_used_quota" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "period_start" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "rpm_limit" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "tpm_limit" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "concurrency_limit" integer DEFAULT 0 NOT NULL;