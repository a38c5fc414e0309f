-- active_runs pages are filled when runs are created, so the claim's update of a copied run (its
-- status changes, which its indexes key on) found no room on the page: each one moved the row to
-- another page, which PostgreSQL logs as a lock record plus the update, and a full-page image of
-- each new page after a checkpoint. With half of each page left free the new version stays on its
-- page (bench/runner/wal-by-relation.js). The table holds only unfinished runs, so it stays small.
-- Pages written before this migration keep their fill until their rows leave.
ALTER TABLE "active_runs" SET (fillfactor = 50);
