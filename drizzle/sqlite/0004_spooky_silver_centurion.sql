ALTER TABLE `midjourneys` ADD `token_id` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `midjourneys` ADD `request_id` text(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `midjourneys` ADD `refunded` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `midjourneys` ADD `notify_hook` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `tasks` ADD `token_id` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `tasks` ADD `request_id` text(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `tasks` ADD `refunded` integer DEFAULT false NOT NULL;