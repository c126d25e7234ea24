ALTER TABLE `channels` ADD `uncollected_quota` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `channels` ADD `over_limit_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `channels` ADD `over_limit_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `midjourneys_unfinished_index` ON `midjourneys` (`id`) WHERE status not in ('SUCCESS', 'FAILURE');--> statement-breakpoint
CREATE INDEX `tasks_unfinished_index` ON `tasks` (`id`) WHERE status not in ('SUCCESS', 'FAILURE');