ALTER TABLE "channels" ADD COLUMN "uncollected_quota" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "over_limit_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "over_limit_at" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "midjourneys_unfinished_index" ON "midjourneys" USING btree ("id") WHERE status not in ('SUCCESS', 'FAILURE');--> statement-breakpoint
CREATE INDEX "tasks_unfinished_index" ON "tasks" USING btree ("id") WHERE status not in ('SUCCESS', 'FAILURE');