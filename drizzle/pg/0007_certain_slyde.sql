CREATE TABLE "stored_response_items" (
	"response_id" varchar(128) NOT NULL,
	"position" integer NOT NULL,
	"user_id" integer NOT NULL,
	"item_id" varchar(128) NOT NULL,
	"role" varchar(8) NOT NULL,
	"item" text NOT NULL,
	CONSTRAINT "stored_response_items_response_id_position_pk" PRIMARY KEY("response_id","position")
);
--> statement-breakpoint
CREATE TABLE "stored_responses" (
	"id" varchar(128) PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"channel_id" integer DEFAULT 0 NOT NULL,
	"model" varchar(255) DEFAULT '' NOT NULL,
	"previous_response_id" varchar(128),
	"body" text DEFAULT '' NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stored_response_items" ADD CONSTRAINT "stored_response_items_response_id_stored_responses_id_fk" FOREIGN KEY ("response_id") REFERENCES "public"."stored_responses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_responses" ADD CONSTRAINT "stored_responses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stored_response_items_item_index" ON "stored_response_items" USING btree ("user_id","item_id");--> statement-breakpoint
CREATE INDEX "stored_responses_user_index" ON "stored_responses" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "stored_responses_expires_index" ON "stored_responses" USING btree ("expires_at");