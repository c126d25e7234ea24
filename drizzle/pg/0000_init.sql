CREATE TABLE "abilities" (
	"group" varchar(64) NOT NULL,
	"model" varchar(255) NOT NULL,
	"channel_id" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"priority" bigint DEFAULT 0 NOT NULL,
	"weight" integer DEFAULT 0 NOT NULL,
	"tag" varchar(64),
	CONSTRAINT "abilities_group_model_channel_id_pk" PRIMARY KEY("group","model","channel_id")
);
--> statement-breakpoint
CREATE TABLE "channels" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" integer DEFAULT 0 NOT NULL,
	"key" text NOT NULL,
	"openai_organization" varchar(128),
	"test_model" varchar(255),
	"status" integer DEFAULT 1 NOT NULL,
	"name" varchar(255) DEFAULT '' NOT NULL,
	"weight" integer DEFAULT 0 NOT NULL,
	"created_time" bigint DEFAULT 0 NOT NULL,
	"test_time" bigint DEFAULT 0 NOT NULL,
	"response_time" integer DEFAULT 0 NOT NULL,
	"base_url" text DEFAULT '' NOT NULL,
	"other" text DEFAULT '' NOT NULL,
	"balance" double precision DEFAULT 0 NOT NULL,
	"balance_updated_time" bigint DEFAULT 0 NOT NULL,
	"models" text DEFAULT '' NOT NULL,
	"group" varchar(255) DEFAULT 'default' NOT NULL,
	"used_quota" bigint DEFAULT 0 NOT NULL,
	"model_mapping" text DEFAULT '' NOT NULL,
	"status_code_mapping" varchar(1024) DEFAULT '' NOT NULL,
	"priority" bigint DEFAULT 0 NOT NULL,
	"auto_ban" integer DEFAULT 1 NOT NULL,
	"other_info" text DEFAULT '' NOT NULL,
	"tag" varchar(64),
	"setting" text DEFAULT '' NOT NULL,
	"max_input_tokens" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer DEFAULT 0 NOT NULL,
	"created_at" bigint DEFAULT 0 NOT NULL,
	"type" integer DEFAULT 0 NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"username" varchar(64) DEFAULT '' NOT NULL,
	"token_name" varchar(64) DEFAULT '' NOT NULL,
	"token_id" integer DEFAULT 0 NOT NULL,
	"model_name" varchar(255) DEFAULT '' NOT NULL,
	"quota" bigint DEFAULT 0 NOT NULL,
	"prompt_tokens" bigint DEFAULT 0 NOT NULL,
	"completion_tokens" bigint DEFAULT 0 NOT NULL,
	"use_time" integer DEFAULT 0 NOT NULL,
	"is_stream" boolean DEFAULT false NOT NULL,
	"channel_id" integer DEFAULT 0 NOT NULL,
	"channel_name" varchar(255) DEFAULT '' NOT NULL,
	"group" varchar(64) DEFAULT '' NOT NULL,
	"other" text DEFAULT '' NOT NULL,
	"request_id" varchar(64)
);
--> statement-breakpoint
CREATE TABLE "midjourneys" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" integer DEFAULT 0 NOT NULL,
	"user_id" integer DEFAULT 0 NOT NULL,
	"action" varchar(40) DEFAULT '' NOT NULL,
	"mj_id" varchar(64) DEFAULT '' NOT NULL,
	"prompt" text DEFAULT '' NOT NULL,
	"prompt_en" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"submit_time" bigint DEFAULT 0 NOT NULL,
	"start_time" bigint DEFAULT 0 NOT NULL,
	"finish_time" bigint DEFAULT 0 NOT NULL,
	"image_url" text DEFAULT '' NOT NULL,
	"status" varchar(20) DEFAULT '' NOT NULL,
	"progress" varchar(30) DEFAULT '' NOT NULL,
	"fail_reason" text DEFAULT '' NOT NULL,
	"channel_id" integer DEFAULT 0 NOT NULL,
	"quota" bigint DEFAULT 0 NOT NULL,
	"buttons" text DEFAULT '' NOT NULL,
	"properties" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "options" (
	"key" varchar(128) PRIMARY KEY NOT NULL,
	"value" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quota_data" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"username" varchar(64) DEFAULT '' NOT NULL,
	"model_name" varchar(255) DEFAULT '' NOT NULL,
	"created_at" bigint NOT NULL,
	"token_used" bigint DEFAULT 0 NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"quota" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quota_holds" (
	"request_id" varchar(64) PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_id" integer DEFAULT 0 NOT NULL,
	"amount" bigint NOT NULL,
	"token_debited" boolean DEFAULT false NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "redemptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer DEFAULT 0 NOT NULL,
	"key" varchar(64) NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"name" varchar(64) DEFAULT '' NOT NULL,
	"quota" bigint DEFAULT 100000 NOT NULL,
	"created_time" bigint DEFAULT 0 NOT NULL,
	"redeemed_time" bigint DEFAULT 0 NOT NULL,
	"used_user_id" integer DEFAULT 0 NOT NULL,
	"deleted_at" bigint
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"created_at" bigint DEFAULT 0 NOT NULL,
	"updated_at" bigint DEFAULT 0 NOT NULL,
	"task_id" varchar(191) DEFAULT '' NOT NULL,
	"platform" varchar(30) DEFAULT '' NOT NULL,
	"user_id" integer DEFAULT 0 NOT NULL,
	"channel_id" integer DEFAULT 0 NOT NULL,
	"quota" bigint DEFAULT 0 NOT NULL,
	"action" varchar(40) DEFAULT '' NOT NULL,
	"status" varchar(20) DEFAULT '' NOT NULL,
	"fail_reason" text DEFAULT '' NOT NULL,
	"submit_time" bigint DEFAULT 0 NOT NULL,
	"start_time" bigint DEFAULT 0 NOT NULL,
	"finish_time" bigint DEFAULT 0 NOT NULL,
	"progress" varchar(20) DEFAULT '' NOT NULL,
	"properties" text DEFAULT '' NOT NULL,
	"data" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"key" varchar(64) NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"name" varchar(64) DEFAULT '' NOT NULL,
	"created_time" bigint DEFAULT 0 NOT NULL,
	"accessed_time" bigint DEFAULT 0 NOT NULL,
	"expired_time" bigint DEFAULT -1 NOT NULL,
	"remain_quota" bigint DEFAULT 0 NOT NULL,
	"unlimited_quota" boolean DEFAULT false NOT NULL,
	"used_quota" bigint DEFAULT 0 NOT NULL,
	"model_limits_enabled" boolean DEFAULT false NOT NULL,
	"model_limits" text DEFAULT '' NOT NULL,
	"allow_ips" text DEFAULT '' NOT NULL,
	"group" varchar(64) DEFAULT '' NOT NULL,
	"deleted_at" bigint
);
--> statement-breakpoint
CREATE TABLE "top_ups" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	"money" double precision DEFAULT 0 NOT NULL,
	"trade_no" varchar(128) NOT NULL,
	"payment_method" varchar(32) DEFAULT '' NOT NULL,
	"create_time" bigint DEFAULT 0 NOT NULL,
	"complete_time" bigint DEFAULT 0 NOT NULL,
	"status" varchar(32) DEFAULT 'pending' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" varchar(64) NOT NULL,
	"password" text NOT NULL,
	"display_name" varchar(64) DEFAULT '' NOT NULL,
	"role" integer DEFAULT 1 NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"email" varchar(128) DEFAULT '' NOT NULL,
	"github_id" varchar(64) DEFAULT '' NOT NULL,
	"wechat_id" varchar(64) DEFAULT '' NOT NULL,
	"telegram_id" varchar(64) DEFAULT '' NOT NULL,
	"linux_do_id" varchar(64) DEFAULT '' NOT NULL,
	"access_token" varchar(64),
	"quota" bigint DEFAULT 0 NOT NULL,
	"used_quota" bigint DEFAULT 0 NOT NULL,
	"request_count" bigint DEFAULT 0 NOT NULL,
	"group" varchar(64) DEFAULT 'default' NOT NULL,
	"aff_code" varchar(32),
	"aff_count" integer DEFAULT 0 NOT NULL,
	"aff_quota" bigint DEFAULT 0 NOT NULL,
	"aff_history_quota" bigint DEFAULT 0 NOT NULL,
	"inviter_id" integer DEFAULT 0 NOT NULL,
	"setting" text DEFAULT '' NOT NULL,
	"session_version" integer DEFAULT 0 NOT NULL,
	"created_at" bigint DEFAULT 0 NOT NULL,
	"deleted_at" bigint
);
--> statement-breakpoint
CREATE TABLE "verifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"purpose" varchar(32) NOT NULL,
	"subject" varchar(255) NOT NULL,
	"code_hash" varchar(64) NOT NULL,
	"payload" text DEFAULT '' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"used_at" bigint
);
--> statement-breakpoint
ALTER TABLE "abilities" ADD CONSTRAINT "abilities_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "abilities_lookup_index" ON "abilities" USING btree ("group","model","enabled","priority");--> statement-breakpoint
CREATE INDEX "abilities_channel_id_index" ON "abilities" USING btree ("channel_id");--> statement-breakpoint
CREATE INDEX "abilities_tag_index" ON "abilities" USING btree ("tag");--> statement-breakpoint
CREATE INDEX "channels_name_index" ON "channels" USING btree ("name");--> statement-breakpoint
CREATE INDEX "channels_tag_index" ON "channels" USING btree ("tag");--> statement-breakpoint
CREATE INDEX "channels_status_index" ON "channels" USING btree ("status");--> statement-breakpoint
CREATE INDEX "logs_created_at_index" ON "logs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "logs_user_created_index" ON "logs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "logs_type_created_index" ON "logs" USING btree ("type","created_at");--> statement-breakpoint
CREATE INDEX "logs_model_name_index" ON "logs" USING btree ("model_name");--> statement-breakpoint
CREATE INDEX "logs_token_name_index" ON "logs" USING btree ("token_name");--> statement-breakpoint
CREATE INDEX "logs_username_index" ON "logs" USING btree ("username");--> statement-breakpoint
CREATE INDEX "logs_channel_id_index" ON "logs" USING btree ("channel_id");--> statement-breakpoint
CREATE INDEX "logs_group_index" ON "logs" USING btree ("group");--> statement-breakpoint
CREATE UNIQUE INDEX "logs_request_id_unique" ON "logs" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "midjourneys_user_id_index" ON "midjourneys" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "midjourneys_mj_id_index" ON "midjourneys" USING btree ("mj_id");--> statement-breakpoint
CREATE INDEX "midjourneys_submit_time_index" ON "midjourneys" USING btree ("submit_time");--> statement-breakpoint
CREATE INDEX "midjourneys_progress_index" ON "midjourneys" USING btree ("progress");--> statement-breakpoint
CREATE UNIQUE INDEX "quota_data_bucket_unique" ON "quota_data" USING btree ("user_id","model_name","created_at");--> statement-breakpoint
CREATE INDEX "quota_data_created_at_index" ON "quota_data" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "quota_holds_created_at_index" ON "quota_holds" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "redemptions_key_unique" ON "redemptions" USING btree ("key");--> statement-breakpoint
CREATE INDEX "redemptions_name_index" ON "redemptions" USING btree ("name");--> statement-breakpoint
CREATE INDEX "tasks_task_id_index" ON "tasks" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "tasks_user_id_index" ON "tasks" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tasks_platform_index" ON "tasks" USING btree ("platform");--> statement-breakpoint
CREATE INDEX "tasks_submit_time_index" ON "tasks" USING btree ("submit_time");--> statement-breakpoint
CREATE INDEX "tasks_progress_index" ON "tasks" USING btree ("progress");--> statement-breakpoint
CREATE UNIQUE INDEX "tokens_key_unique" ON "tokens" USING btree ("key");--> statement-breakpoint
CREATE INDEX "tokens_user_id_index" ON "tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tokens_name_index" ON "tokens" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "top_ups_trade_no_unique" ON "top_ups" USING btree ("trade_no");--> statement-breakpoint
CREATE INDEX "top_ups_user_id_index" ON "top_ups" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_unique" ON "users" USING btree ("username");--> statement-breakpoint
CREATE UNIQUE INDEX "users_access_token_unique" ON "users" USING btree ("access_token");--> statement-breakpoint
CREATE UNIQUE INDEX "users_aff_code_unique" ON "users" USING btree ("aff_code");--> statement-breakpoint
CREATE INDEX "users_email_index" ON "users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "users_github_id_index" ON "users" USING btree ("github_id");--> statement-breakpoint
CREATE INDEX "users_wechat_id_index" ON "users" USING btree ("wechat_id");--> statement-breakpoint
CREATE INDEX "users_telegram_id_index" ON "users" USING btree ("telegram_id");--> statement-breakpoint
CREATE INDEX "users_linux_do_id_index" ON "users" USING btree ("linux_do_id");--> statement-breakpoint
CREATE INDEX "users_group_index" ON "users" USING btree ("group");--> statement-breakpoint
CREATE INDEX "users_deleted_at_index" ON "users" USING btree ("deleted_at");--> statement-breakpoint
CREATE INDEX "verifications_lookup_index" ON "verifications" USING btree ("purpose","subject");--> statement-breakpoint
CREATE INDEX "verifications_code_index" ON "verifications" USING btree ("purpose","code_hash");--> statement-breakpoint
CREATE INDEX "verifications_expires_at_index" ON "verifications" USING btree ("expires_at");