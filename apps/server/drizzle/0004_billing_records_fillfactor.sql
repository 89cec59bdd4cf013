-- Metering rewrites the current hour's bill line of every running pay-as-you-go instance each
-- minute (about 60 times, then never again). With room left on each page those rewrites are HOT
-- updates (no new index entries, the old version pruned on the page); with full pages each one
-- writes the row elsewhere plus its three index entries (issue 15; docs/decisions.md).
ALTER TABLE "billing_records" SET (fillfactor = 50);
