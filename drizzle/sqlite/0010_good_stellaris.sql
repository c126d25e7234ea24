CREATE TABLE `log_captures` (
	`log_id` integer PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`method` text(16) DEFAULT '' NOT NULL,
	`path` text DEFAULT '' NOT NULL,
	`request_headers` text DEFAULT '{}' NOT NULL,
	`request_body` text DEFAULT '' NOT NULL,
	`request_size` integer DEFAULT 0 NOT NULL,
	`response_status` integer DEFAULT 0 NOT NULL,
	`response_body` text DEFAULT '' NOT NULL,
	`response_size` integer DEFAULT 0 NOT NULL,
	`is_stream` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`log_id`) REFERENCES `logs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `log_captures_created_index` ON `log_captures` (`created_at`);--> statement-breakpoint
ALTER TABLE `tokens` ADD `capture_until` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `capture_until` integer DEFAULT 0 NOT NULL;