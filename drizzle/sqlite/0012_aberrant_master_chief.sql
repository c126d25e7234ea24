CREATE TABLE `audit_logs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`created_at` integer NOT NULL,
	`actor_id` integer NOT NULL,
	`actor_name` text(64) DEFAULT '' NOT NULL,
	`address` text(64) DEFAULT '' NOT NULL,
	`action` text(64) NOT NULL,
	`target_type` text(32) DEFAULT '' NOT NULL,
	`target_id` text DEFAULT '' NOT NULL,
	`changes` text DEFAULT '[]' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_logs_created_at_index` ON `audit_logs` (`created_at`);--> statement-breakpoint
CREATE INDEX `audit_logs_actor_id_index` ON `audit_logs` (`actor_id`);--> statement-breakpoint
CREATE INDEX `audit_logs_action_index` ON `audit_logs` (`action`);