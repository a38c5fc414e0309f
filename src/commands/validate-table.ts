import Validate from './validate.js';

/**
 * The command table when the command is `validate` (chosen by bin/run.js): validate runs on every
 * push and has a latency target, and the full table in index.ts imports every command module with
 * the database, runner and plan code behind them, about 200 ms of start-up validate never uses.
 */
export const commands = { validate: Validate };
