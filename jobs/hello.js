// Example job for schedules/hello.yaml: the quick start's first SUCCESS. It needs no secret, so a
// fresh clone runs it under `cronform dev` within a minute; it prints the run context it received.
import { reportRun } from './run-context.js';

reportRun('hello', { message: 'hello from cronform' });
