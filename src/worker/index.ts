/** The `cronform/worker` package export (package.json "exports"). */
export { reportTo, runReports, type HandedOffRun, type HandlerContext, type ReportingClient, type ReportOptions, type RunHandler, type RunReports } from './report-to.js';
