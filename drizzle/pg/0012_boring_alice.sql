CREATE TABLE "audit_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"created_at" bigint NOT NULL,
	"actor_id" integer NOT NULL,
	"actor_name" varchar(64) DEFAULT '' NOT NULL,
	"address" varchar(64) DEFAULT '' NOT NULL,
	"action" varchar(64) NOT NULL,
	"target_type" varchar(32) DEFAULT '' NOT NULL,
	"target_id" text DEFAULT '' NOT NULL,
	"changes" text DEFAULT '[]' NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_logs_created_at_index" ON "audit_logs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "audit_logs_actor_id_index" ON "audit_logs" USING btree ("actor_id");--> statement-breakpoint
CREATE INDEX "audit_logs_action_index" ON "audit_logs" USING btree ("action");