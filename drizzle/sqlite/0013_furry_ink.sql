ALTER TABLE `midjourneys` ADD `key_index` integer DEFAULT -1 NOT NULL;--> statement-breakpoint
ALTER TABLE `tasks` ADD `key_index` integer DEFAULT -1 NOT NULL;