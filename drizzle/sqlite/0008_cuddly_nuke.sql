CREATE TABLE `passkeys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`credential_id` text(512) NOT NULL,
	`public_key` text NOT NULL,
	`counter` integer DEFAULT 0 NOT NULL,
	`transports` text(128) DEFAULT '' NOT NULL,
	`user_handle` text(128) NOT NULL,
	`name` text(64) DEFAULT '' NOT NULL,
	`backed_up` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `passkeys_credential_id_unique` ON `passkeys` (`credential_id`);--> statement-breakpoint
CREATE INDEX `passkeys_user_id_index` ON `passkeys` (`user_id`);--> statement-breakpoint
CREATE TABLE `recovery_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`code_hash` text(64) NOT NULL,
	`used_at` integer
);
--> statement-breakpoint
CREATE INDEX `recovery_codes_user_id_index` ON `recovery_codes` (`user_id`,`code_hash`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text(64) NOT NULL,
	`user_id` integer NOT NULL,
	`user_version` integer DEFAULT 0 NOT NULL,
	`method` text(48) DEFAULT '' NOT NULL,
	`address` text(64) DEFAULT '' NOT NULL,
	`user_agent` text(512) DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_token_hash_unique` ON `sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `sessions_user_id_index` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `sessions_expires_at_index` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `totp_secrets` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`secret` text(64) NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`last_step` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`enabled_at` integer
);
--> statement-breakpoint
ALTER TABLE `users` ADD `oidc_id` text(255) DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `users_oidc_id_unique` ON `users` (`oidc_id`) WHERE oidc_id <> '';