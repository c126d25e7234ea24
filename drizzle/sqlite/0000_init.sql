CREATE TABLE `abilities` (
	`group` text(64) NOT NULL,
	`model` text(255) NOT NULL,
	`channel_id` integer NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`weight` integer DEFAULT 0 NOT NULL,
	`tag` text(64),
	PRIMARY KEY(`group`, `model`, `channel_id`),
	FOREIGN KEY (`channel_id`) REFERENCES `channels`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `abilities_lookup_index` ON `abilities` (`group`,`model`,`enabled`,`priority`);--> statement-breakpoint
CREATE INDEX `abilities_channel_id_index` ON `abilities` (`channel_id`);--> statement-breakpoint
CREATE INDEX `abilities_tag_index` ON `abilities` (`tag`);--> statement-breakpoint
CREATE TABLE `channels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` integer DEFAULT 0 NOT NULL,
	`key` text NOT NULL,
	`openai_organization` text(128),
	`test_model` text(255),
	`status` integer DEFAULT 1 NOT NULL,
	`name` text(255) DEFAULT '' NOT NULL,
	`weight` integer DEFAULT 0 NOT NULL,
	`created_time` integer DEFAULT 0 NOT NULL,
	`test_time` integer DEFAULT 0 NOT NULL,
	`response_time` integer DEFAULT 0 NOT NULL,
	`base_url` text DEFAULT '' NOT NULL,
	`other` text DEFAULT '' NOT NULL,
	`balance` real DEFAULT 0 NOT NULL,
	`balance_updated_time` integer DEFAULT 0 NOT NULL,
	`models` text DEFAULT '' NOT NULL,
	`group` text(255) DEFAULT 'default' NOT NULL,
	`used_quota` integer DEFAULT 0 NOT NULL,
	`model_mapping` text DEFAULT '' NOT NULL,
	`status_code_mapping` text(1024) DEFAULT '' NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`auto_ban` integer DEFAULT 1 NOT NULL,
	`other_info` text DEFAULT '' NOT NULL,
	`tag` text(64),
	`setting` text DEFAULT '' NOT NULL,
	`max_input_tokens` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `channels_name_index` ON `channels` (`name`);--> statement-breakpoint
CREATE INDEX `channels_tag_index` ON `channels` (`tag`);--> statement-breakpoint
CREATE INDEX `channels_status_index` ON `channels` (`status`);--> statement-breakpoint
CREATE TABLE `logs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT 0 NOT NULL,
	`type` integer DEFAULT 0 NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`username` text(64) DEFAULT '' NOT NULL,
	`token_name` text(64) DEFAULT '' NOT NULL,
	`token_id` integer DEFAULT 0 NOT NULL,
	`model_name` text(255) DEFAULT '' NOT NULL,
	`quota` integer DEFAULT 0 NOT NULL,
	`prompt_tokens` integer DEFAULT 0 NOT NULL,
	`completion_tokens` integer DEFAULT 0 NOT NULL,
	`use_time` integer DEFAULT 0 NOT NULL,
	`is_stream` integer DEFAULT false NOT NULL,
	`channel_id` integer DEFAULT 0 NOT NULL,
	`channel_name` text(255) DEFAULT '' NOT NULL,
	`group` text(64) DEFAULT '' NOT NULL,
	`other` text DEFAULT '' NOT NULL,
	`request_id` text(64)
);
--> statement-breakpoint
CREATE INDEX `logs_created_at_index` ON `logs` (`created_at`);--> statement-breakpoint
CREATE INDEX `logs_user_created_index` ON `logs` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `logs_type_created_index` ON `logs` (`type`,`created_at`);--> statement-breakpoint
CREATE INDEX `logs_model_name_index` ON `logs` (`model_name`);--> statement-breakpoint
CREATE INDEX `logs_token_name_index` ON `logs` (`token_name`);--> statement-breakpoint
CREATE INDEX `logs_username_index` ON `logs` (`username`);--> statement-breakpoint
CREATE INDEX `logs_channel_id_index` ON `logs` (`channel_id`);--> statement-breakpoint
CREATE INDEX `logs_group_index` ON `logs` (`group`);--> statement-breakpoint
CREATE UNIQUE INDEX `logs_request_id_unique` ON `logs` (`request_id`);--> statement-breakpoint
CREATE TABLE `midjourneys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` integer DEFAULT 0 NOT NULL,
	`user_id` integer DEFAULT 0 NOT NULL,
	`action` text(40) DEFAULT '' NOT NULL,
	`mj_id` text(64) DEFAULT '' NOT NULL,
	`prompt` text DEFAULT '' NOT NULL,
	`prompt_en` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`state` text DEFAULT '' NOT NULL,
	`submit_time` integer DEFAULT 0 NOT NULL,
	`start_time` integer DEFAULT 0 NOT NULL,
	`finish_time` integer DEFAULT 0 NOT NULL,
	`image_url` text DEFAULT '' NOT NULL,
	`status` text(20) DEFAULT '' NOT NULL,
	`progress` text(30) DEFAULT '' NOT NULL,
	`fail_reason` text DEFAULT '' NOT NULL,
	`channel_id` integer DEFAULT 0 NOT NULL,
	`quota` integer DEFAULT 0 NOT NULL,
	`buttons` text DEFAULT '' NOT NULL,
	`properties` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `midjourneys_user_id_index` ON `midjourneys` (`user_id`);--> statement-breakpoint
CREATE INDEX `midjourneys_mj_id_index` ON `midjourneys` (`mj_id`);--> statement-breakpoint
CREATE INDEX `midjourneys_submit_time_index` ON `midjourneys` (`submit_time`);--> statement-breakpoint
CREATE INDEX `midjourneys_progress_index` ON `midjourneys` (`progress`);--> statement-breakpoint
CREATE TABLE `options` (
	`key` text(128) PRIMARY KEY NOT NULL,
	`value` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE `quota_data` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`username` text(64) DEFAULT '' NOT NULL,
	`model_name` text(255) DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`token_used` integer DEFAULT 0 NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`quota` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `quota_data_bucket_unique` ON `quota_data` (`user_id`,`model_name`,`created_at`);--> statement-breakpoint
CREATE INDEX `quota_data_created_at_index` ON `quota_data` (`created_at`);--> statement-breakpoint
CREATE TABLE `quota_holds` (
	`request_id` text(64) PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`token_id` integer DEFAULT 0 NOT NULL,
	`amount` integer NOT NULL,
	`token_debited` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `quota_holds_created_at_index` ON `quota_holds` (`created_at`);--> statement-breakpoint
CREATE TABLE `redemptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer DEFAULT 0 NOT NULL,
	`key` text(64) NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`name` text(64) DEFAULT '' NOT NULL,
	`quota` integer DEFAULT 100000 NOT NULL,
	`created_time` integer DEFAULT 0 NOT NULL,
	`redeemed_time` integer DEFAULT 0 NOT NULL,
	`used_user_id` integer DEFAULT 0 NOT NULL,
	`deleted_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `redemptions_key_unique` ON `redemptions` (`key`);--> statement-breakpoint
CREATE INDEX `redemptions_name_index` ON `redemptions` (`name`);--> statement-breakpoint
CREATE TABLE `tasks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`created_at` integer DEFAULT 0 NOT NULL,
	`updated_at` integer DEFAULT 0 NOT NULL,
	`task_id` text(191) DEFAULT '' NOT NULL,
	`platform` text(30) DEFAULT '' NOT NULL,
	`user_id` integer DEFAULT 0 NOT NULL,
	`channel_id` integer DEFAULT 0 NOT NULL,
	`quota` integer DEFAULT 0 NOT NULL,
	`action` text(40) DEFAULT '' NOT NULL,
	`status` text(20) DEFAULT '' NOT NULL,
	`fail_reason` text DEFAULT '' NOT NULL,
	`submit_time` integer DEFAULT 0 NOT NULL,
	`start_time` integer DEFAULT 0 NOT NULL,
	`finish_time` integer DEFAULT 0 NOT NULL,
	`progress` text(20) DEFAULT '' NOT NULL,
	`properties` text DEFAULT '' NOT NULL,
	`data` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `tasks_task_id_index` ON `tasks` (`task_id`);--> statement-breakpoint
CREATE INDEX `tasks_user_id_index` ON `tasks` (`user_id`);--> statement-breakpoint
CREATE INDEX `tasks_platform_index` ON `tasks` (`platform`);--> statement-breakpoint
CREATE INDEX `tasks_submit_time_index` ON `tasks` (`submit_time`);--> statement-breakpoint
CREATE INDEX `tasks_progress_index` ON `tasks` (`progress`);--> statement-breakpoint
CREATE TABLE `tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`key` text(64) NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`name` text(64) DEFAULT '' NOT NULL,
	`created_time` integer DEFAULT 0 NOT NULL,
	`accessed_time` integer DEFAULT 0 NOT NULL,
	`expired_time` integer DEFAULT -1 NOT NULL,
	`remain_quota` integer DEFAULT 0 NOT NULL,
	`unlimited_quota` integer DEFAULT false NOT NULL,
	`used_quota` integer DEFAULT 0 NOT NULL,
	`model_limits_enabled` integer DEFAULT false NOT NULL,
	`model_limits` text DEFAULT '' NOT NULL,
	`allow_ips` text DEFAULT '' NOT NULL,
	`group` text(64) DEFAULT '' NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tokens_key_unique` ON `tokens` (`key`);--> statement-breakpoint
CREATE INDEX `tokens_user_id_index` ON `tokens` (`user_id`);--> statement-breakpoint
CREATE INDEX `tokens_name_index` ON `tokens` (`name`);--> statement-breakpoint
CREATE TABLE `top_ups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`amount` integer DEFAULT 0 NOT NULL,
	`money` real DEFAULT 0 NOT NULL,
	`trade_no` text(128) NOT NULL,
	`payment_method` text(32) DEFAULT '' NOT NULL,
	`create_time` integer DEFAULT 0 NOT NULL,
	`complete_time` integer DEFAULT 0 NOT NULL,
	`status` text(32) DEFAULT 'pending' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `top_ups_trade_no_unique` ON `top_ups` (`trade_no`);--> statement-breakpoint
CREATE INDEX `top_ups_user_id_index` ON `top_ups` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text(64) NOT NULL,
	`password` text NOT NULL,
	`display_name` text(64) DEFAULT '' NOT NULL,
	`role` integer DEFAULT 1 NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`email` text(128) DEFAULT '' NOT NULL,
	`github_id` text(64) DEFAULT '' NOT NULL,
	`wechat_id` text(64) DEFAULT '' NOT NULL,
	`telegram_id` text(64) DEFAULT '' NOT NULL,
	`linux_do_id` text(64) DEFAULT '' NOT NULL,
	`access_token` text(64),
	`quota` integer DEFAULT 0 NOT NULL,
	`used_quota` integer DEFAULT 0 NOT NULL,
	`request_count` integer DEFAULT 0 NOT NULL,
	`group` text(64) DEFAULT 'default' NOT NULL,
	`aff_code` text(32),
	`aff_count` integer DEFAULT 0 NOT NULL,
	`aff_quota` integer DEFAULT 0 NOT NULL,
	`aff_history_quota` integer DEFAULT 0 NOT NULL,
	`inviter_id` integer DEFAULT 0 NOT NULL,
	`setting` text DEFAULT '' NOT NULL,
	`session_version` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT 0 NOT NULL,
	`deleted_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (`username`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_access_token_unique` ON `users` (`access_token`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_aff_code_unique` ON `users` (`aff_code`);--> statement-breakpoint
CREATE INDEX `users_email_index` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `users_github_id_index` ON `users` (`github_id`);--> statement-breakpoint
CREATE INDEX `users_wechat_id_index` ON `users` (`wechat_id`);--> statement-breakpoint
CREATE INDEX `users_telegram_id_index` ON `users` (`telegram_id`);--> statement-breakpoint
CREATE INDEX `users_linux_do_id_index` ON `users` (`linux_do_id`);--> statement-breakpoint
CREATE INDEX `users_group_index` ON `users` (`group`);--> statement-breakpoint
CREATE INDEX `users_deleted_at_index` ON `users` (`deleted_at`);--> statement-breakpoint
CREATE TABLE `verifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`purpose` text(32) NOT NULL,
	`subject` text(255) NOT NULL,
	`code_hash` text(64) NOT NULL,
	`payload` text DEFAULT '' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer
);
--> statement-breakpoint
CREATE INDEX `verifications_lookup_index` ON `verifications` (`purpose`,`subject`);--> statement-breakpoint
CREATE INDEX `verifications_code_index` ON `verifications` (`purpose`,`code_hash`);--> statement-breakpoint
CREATE INDEX `verifications_expires_at_index` ON `verifications` (`expires_at`);