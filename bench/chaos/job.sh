#!/bin/sh
# The job of every chaos schedule: job.sh <kind> <version> <seconds> <exclusive 0|1> <work dir>
# It records what really ran (START/END lines in <work dir>/jobs.log, one short append each) and
# detects overlaps at the process level with flock: the lock of a run (and, for SKIP_NEW and
# QUEUE_NEW schedules, of the schedule) is held by this shell and its children until the last of
# them dies, however it dies, so a second attempt that starts while the first is still alive
# cannot take it and writes an OVERLAP line.
kind=$1 version=$2 seconds=$3 exclusive=$4 dir=$5
log="$dir/jobs.log"
exec 9>"$dir/locks/run-$CRONFORM_RUN_ID"
if ! flock -n 9; then
  echo "OVERLAP_RUN $CRONFORM_RUN_ID $CRONFORM_ATTEMPT $CRONFORM_SCHEDULE $(date +%s%3N) $$" >>"$log"
  # Who holds the lock, for the post-mortem (rare: only on an overlap): every process with the
  # lock file open, with its group, parent, state and age in seconds.
  for fd_dir in /proc/[0-9]*/fd; do
    holder=${fd_dir#/proc/}; holder=${holder%/fd}
    [ "$holder" = $$ ] && continue
    if ls -l "$fd_dir" 2>/dev/null | grep -q "locks/run-$CRONFORM_RUN_ID\$"; then
      echo "HOLDER run $CRONFORM_RUN_ID attempt $CRONFORM_ATTEMPT $(date +%s%3N): $(ps -o pid=,pgid=,ppid=,stat=,etimes=,args= -p "$holder" 2>&1)" >>"$dir/overlaps.log"
    fi
  done
fi
if [ "$exclusive" = 1 ]; then
  exec 8>"$dir/locks/schedule-$CRONFORM_SCHEDULE"
  flock -n 8 || echo "OVERLAP_SCHEDULE $CRONFORM_RUN_ID $CRONFORM_ATTEMPT $CRONFORM_SCHEDULE" >>"$log"
fi
echo "START $CRONFORM_RUN_ID $CRONFORM_ATTEMPT $version $CRONFORM_SCHEDULE $(date +%s%3N) $$" >>"$log"
code=0
case "$kind" in
  ok) sleep "$seconds" ;;
  fail) sleep "$seconds"; code=1 ;;
  flaky) sleep "$seconds"; [ "$CRONFORM_ATTEMPT" -ge 2 ] || code=1 ;;
  hang) sleep 600 ;;
  stubborn) trap '' TERM; sleep 600 ;;
  crash) sleep "$seconds"; kill -KILL $$ ;;
esac
# The instant (ms) tells a job that ended on its own from one its runner stopped just after it.
echo "END $CRONFORM_RUN_ID $CRONFORM_ATTEMPT $code $(date +%s%3N)" >>"$log"
exit "$code"
