ALTER TABLE "accounts" ADD COLUMN "spent" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- What each user has spent so far: from here on the statements that write bill lines keep it.
UPDATE "accounts" AS a SET "spent" = s.total
FROM (SELECT "user_id", sum("amount") AS total FROM "billing_records" GROUP BY "user_id") AS s
WHERE a."user_id" = s."user_id" AND s.total <> 0;--> statement-breakpoint
CREATE INDEX "accounts_spent" ON "accounts" USING btree ("spent","user_id");
