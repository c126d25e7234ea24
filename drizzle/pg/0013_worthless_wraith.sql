ALTER TABLE "midjourneys" ADD COLUMN "key_index" integer DEFAULT -1 NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "key_index" integer DEFAULT -1 NOT NULL;