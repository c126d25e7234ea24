CREATE TABLE `stored_response_items` (
	`response_id` text(128) NOT NULL,
	`position` integer NOT NULL,
	`user_id` integer NOT NULL,
	`item_id` text(128) NOT NULL,
	`role` text(8) NOT NULL,
	`item` text NOT NULL,
	PRIMARY KEY(`response_id`, `position`),
	FOREIGN KEY (`response_id`) REFERENCES `stored_responses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `stored_response_items_item_index` ON `stored_response_items` (`user_id`,`item_id`);--> statement-breakpoint
CREATE TABLE `stored_responses` (
	`id` text(128) PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`channel_id` integer DEFAULT 0 NOT NULL,
	`model` text(255) DEFAULT '' NOT NULL,
	`previous_response_id` text(128),
	`body` text DEFAULT '' NOT NULL,
	`bytes` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `stored_responses_user_index` ON `stored_responses` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `stored_responses_expires_index` ON `stored_responses` (`expires_at`);