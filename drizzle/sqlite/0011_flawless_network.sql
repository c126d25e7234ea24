ALTER TABLE `tokens` ADD `quota_period` text(8) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `tokens` ADD `period_quota` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `tokens` ADD `period_used_quota` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `tokens` ADD `period_start` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `tokens` ADD `rpm_limit` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `tokens` ADD `tpm_limit` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `tokens` ADD `concurrency_limit` integer DEFAULT 0 NOT NULL;