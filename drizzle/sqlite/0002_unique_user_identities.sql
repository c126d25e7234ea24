DROP INDEX `users_email_index`;--> statement-breakpoint
DROP INDEX `users_github_id_index`;--> statement-breakpoint
DROP INDEX `users_wechat_id_index`;--> statement-breakpoint
DROP INDEX `users_telegram_id_index`;--> statement-breakpoint
DROP INDEX `users_linux_do_id_index`;--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`) WHERE email <> '';--> statement-breakpoint
CREATE UNIQUE INDEX `users_github_id_unique` ON `users` (`github_id`) WHERE github_id <> '';--> statement-breakpoint
CREATE UNIQUE INDEX `users_wechat_id_unique` ON `users` (`wechat_id`) WHERE wechat_id <> '';--> statement-breakpoint
CREATE UNIQUE INDEX `users_telegram_id_unique` ON `users` (`telegram_id`) WHERE telegram_id <> '';--> statement-breakpoint
CREATE UNIQUE INDEX `users_linux_do_id_unique` ON `users` (`linux_do_id`) WHERE linux_do_id <> '';