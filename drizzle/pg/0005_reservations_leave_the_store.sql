-- Holds of earlier versions were debits waiting for their settlement; a request still holding one
-- can no longer settle it, so each is given back before its table goes.
UPDATE "users" SET "quota" = "quota" + (SELECT sum("amount") FROM "quota_holds" WHERE "quota_holds"."user_id" = "users"."id") WHERE "id" IN (SELECT "user_id" FROM "quota_holds");--> statement-breakpoint
UPDATE "tokens" SET "remain_quota" = "remain_quota" + (SELECT sum("amount") FROM "quota_holds" WHERE "quota_holds"."token_id" = "tokens"."id" AND "quota_holds"."token_debited") WHERE "id" IN (SELECT "token_id" FROM "quota_holds" WHERE "token_debited");--> statement-breakpoint
DROP TABLE "quota_holds" CASCADE;
