ALTER TABLE `channels` ADD `channel_info` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `logs` ADD `ip` text(64) DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `logs_ip_created_index` ON `logs` (`ip`,`created_at`);