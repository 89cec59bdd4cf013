CREATE TABLE "voucher_day_totals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"live" integer NOT NULL,
	"live_value" bigint NOT NULL,
	"used" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "voucher_day_totals_user" ON "voucher_day_totals" USING btree ("user_id","day");--> statement-breakpoint
-- The one definition of a voucher's expiry day, used by the triggers and by the statistics' read.
CREATE FUNCTION "voucher_expiry_day"("at" timestamptz) RETURNS timestamptz
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT date_bin('1 day', "at", timestamptz '2000-01-01 00:00:00+00') $$;
--> statement-breakpoint
-- Appends what a statement changed, per user and expiry day: + the rows after, - the rows before.
CREATE FUNCTION "voucher_day_totals_track"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO voucher_day_totals (user_id, day, live, live_value, used)
    SELECT user_id, voucher_expiry_day(expires_at), count(*) FILTER (WHERE remaining > 0),
           sum(remaining), count(*) FILTER (WHERE remaining <= 0)
    FROM new_rows GROUP BY 1, 2;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO voucher_day_totals (user_id, day, live, live_value, used)
    SELECT user_id, voucher_expiry_day(expires_at), -count(*) FILTER (WHERE remaining > 0),
           -sum(remaining), -count(*) FILTER (WHERE remaining <= 0)
    FROM old_rows GROUP BY 1, 2;
  ELSE
    INSERT INTO voucher_day_totals (user_id, day, live, live_value, used)
    SELECT user_id, day, sum(live), sum(live_value), sum(used) FROM (
      SELECT user_id, voucher_expiry_day(expires_at) AS day, (remaining > 0)::int AS live,
             remaining AS live_value, (remaining <= 0)::int AS used
      FROM new_rows
      UNION ALL
      SELECT user_id, voucher_expiry_day(expires_at), -(remaining > 0)::int, -remaining, -(remaining <= 0)::int
      FROM old_rows
    ) AS d
    GROUP BY 1, 2 HAVING sum(live) <> 0 OR sum(live_value) <> 0 OR sum(used) <> 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Writes wait for this migration to commit: none is missed by the totals below or counted twice.
LOCK TABLE "vouchers" IN SHARE MODE;
--> statement-breakpoint
CREATE TRIGGER "vouchers_day_totals_insert" AFTER INSERT ON "vouchers"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voucher_day_totals_track();
--> statement-breakpoint
CREATE TRIGGER "vouchers_day_totals_update" AFTER UPDATE ON "vouchers"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voucher_day_totals_track();
--> statement-breakpoint
CREATE TRIGGER "vouchers_day_totals_delete" AFTER DELETE ON "vouchers"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voucher_day_totals_track();
--> statement-breakpoint
INSERT INTO "voucher_day_totals" ("user_id", "day", "live", "live_value", "used")
SELECT "user_id", voucher_expiry_day("expires_at"), count(*) FILTER (WHERE "remaining" > 0),
       sum("remaining"), count(*) FILTER (WHERE "remaining" <= 0)
FROM "vouchers" GROUP BY 1, 2;
