DROP INDEX "logs_model_name_index";--> statement-breakpoint
DROP INDEX "logs_token_name_index";--> statement-breakpoint
DROP INDEX "logs_username_index";--> statement-breakpoint
DROP INDEX "logs_channel_id_index";--> statement-breakpoint
DROP INDEX "logs_group_index";--> statement-breakpoint
CREATE INDEX "logs_model_created_index" ON "logs" USING btree ("model_name","created_at");--> statement-breakpoint
CREATE INDEX "logs_token_created_index" ON "logs" USING btree ("token_name","created_at");--> statement-breakpoint
CREATE INDEX "logs_username_created_index" ON "logs" USING btree ("username","created_at");--> statement-breakpoint
CREATE INDEX "logs_channel_created_index" ON "logs" USING btree ("channel_id","created_at");--> statement-breakpoint
CREATE INDEX "logs_group_created_index" ON "logs" USING btree ("group","created_at");