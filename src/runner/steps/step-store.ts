import type { Database } from '../../db/client.js';
import { findRunSteps, recordStepEnd, recordStepStart } from '../../db/step-queries.js';
import type { StepStore } from './execute-steps.js';

/** The steps of this runner's runs, recorded in `run_steps` under its lease (each write its own statement, committed before the next step). */
export function createDatabaseStepStore(database: Database, runnerId: string): StepStore {
  return {
    load: (runId) => findRunSteps(database.db, runId),
    start: (start) => recordStepStart(database.db, runnerId, start),
    end: (end) => recordStepEnd(database.db, runnerId, end),
  };
}
