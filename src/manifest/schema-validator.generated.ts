// Generated from schema/cronform.schema.json by `npm run gen:validator`: edit the schema, never this file.
// @ts-nocheck: this is ajv's JavaScript; validate-schema.ts gives it its type.
import { createRequire } from 'node:module';
import * as schemaFormats from './schema-formats.js';

const require = createRequire(import.meta.url);
export const validate = validate20;
export default validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://cronform.dev/schema/cronform.schema.json","title":"CronformManifest","description":"One cronform manifest document (apiVersion cronform/v1): a Schedule or the repository's Policy. Semantic rules (cron syntax, IANA time zones, policy contradictions, secrets) are checked by `cronform validate`, not by this schema.","type":"object","discriminator":{"propertyName":"kind"},"oneOf":[{"$ref":"#/$defs/scheduleManifest"},{"$ref":"#/$defs/policyManifest"}],"$defs":{"apiVersion":{"description":"Manifest format version.","type":"string","const":"cronform/v1"},"name":{"description":"A DNS-label-like name: lowercase letters, digits and '-', starting and ending with a letter or digit, at most 63 characters.","type":"string","pattern":"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$","maxLength":63},"duration":{"description":"A duration written as <n>ms|s|m|h|d, e.g. 500ms, 30s, 10m, 2h, 1d.","type":"string","pattern":"^[0-9]+(ms|s|m|h|d)$"},"retention":{"title":"Retention","description":"How long finished runs are kept (README, Retention). The runner deletes a finished run once its slot is older than `runs`, but never one of a schedule's latest `keepLast` runs; daily rollups keep the counts `report` shows. Unset: runs are kept forever.","type":"object","additionalProperties":false,"minProperties":1,"properties":{"runs":{"$ref":"#/$defs/duration","description":"Age (by slot) after which a finished run is deleted, at least 7d, e.g. 90d."},"keepLast":{"description":"The latest this many runs of each schedule are always kept, however old.","type":"integer","minimum":0,"default":100}}},"secretRef":{"title":"SecretRef","description":"A secret passed by reference: the value is read from this environment variable of the runner when the job starts, never stored in the manifest or the database.","type":"object","additionalProperties":false,"required":["fromEnv"],"properties":{"fromEnv":{"description":"Name of the runner's environment variable holding the value.","type":"string","pattern":"^[A-Z_][A-Z0-9_]*$"}}},"stringOrSecretRef":{"description":"A literal non-secret string, or { fromEnv: NAME } for a secret.","anyOf":[{"type":"string"},{"$ref":"#/$defs/secretRef"}]},"labels":{"title":"Labels","description":"Free-form string labels, e.g. { team: platform }.","type":"object","additionalProperties":{"type":"string"}},"priority":{"description":"Claim order among due runs: CRITICAL first, LOW last.","type":"string","enum":["CRITICAL","HIGH","NORMAL","LOW"]},"riskAcceptance":{"title":"RiskAcceptance","description":"An accepted plan risk finding: shown as accepted in plans, never hidden.","type":"object","additionalProperties":false,"required":["code","reason","until"],"properties":{"code":{"description":"The finding code accepted, e.g. CF101.","type":"string","pattern":"^CF[0-9]{3}$"},"reason":{"description":"Why the risk is accepted.","type":"string","minLength":1},"until":{"description":"Last day (YYYY-MM-DD) the acceptance holds.","type":"string","format":"date"}}},"scheduleMetadata":{"title":"ScheduleMetadata","description":"Identity and ownership of a schedule.","type":"object","additionalProperties":false,"required":["name"],"properties":{"name":{"$ref":"#/$defs/name","description":"Schedule name, unique in the repository."},"description":{"description":"What the schedule does, for humans.","type":"string"},"owner":{"description":"Team or person responsible for the schedule.","type":"string"},"labels":{"$ref":"#/$defs/labels"},"previousName":{"$ref":"#/$defs/name","description":"The schedule's former name: declares a rename, so history is kept."},"riskAccepted":{"description":"Plan risk findings accepted for this schedule.","type":"array","items":{"$ref":"#/$defs/riskAcceptance"}}}},"policyMetadata":{"title":"PolicyMetadata","description":"Identity of the policy.","type":"object","additionalProperties":false,"required":["name"],"properties":{"name":{"$ref":"#/$defs/name","description":"Policy name, e.g. default."},"description":{"description":"What the policy is for, for humans.","type":"string"},"owner":{"description":"Team or person responsible for the policy.","type":"string"},"labels":{"$ref":"#/$defs/labels"}}},"commandJob":{"title":"CommandJob","description":"Runs a program directly (argv, no shell).","type":"object","additionalProperties":false,"required":["type","command"],"properties":{"type":{"description":"Executor kind.","type":"string","const":"command"},"command":{"description":"argv: program and arguments, no shell. Arguments may use {{businessDate}}.","type":"array","minItems":1,"items":{"type":"string"}},"cwd":{"description":"Working directory, relative to the repository root.","type":"string"},"env":{"description":"Extra environment variables: literal non-secret strings, or { fromEnv: NAME } for secrets.","type":"object","propertyNames":{"pattern":"^[A-Za-z_][A-Za-z0-9_]*$"},"additionalProperties":{"$ref":"#/$defs/stringOrSecretRef"}}}},"httpJob":{"title":"HttpJob","description":"Sends one HTTP request; the run succeeds when the status matches expectStatus.","type":"object","additionalProperties":false,"required":["type","url"],"properties":{"type":{"description":"Executor kind.","type":"string","const":"http"},"url":{"description":"Absolute URL to call.","type":"string","format":"uri"},"method":{"description":"HTTP method.","type":"string","enum":["GET","POST","PUT","PATCH","DELETE"],"default":"POST"},"headers":{"description":"Request headers: literal non-secret strings, or { fromEnv: NAME } for secrets.","type":"object","propertyNames":{"pattern":"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"},"additionalProperties":{"$ref":"#/$defs/stringOrSecretRef"}},"body":{"description":"Request body: a string sent as is, or an object sent as JSON.","anyOf":[{"type":"string"},{"type":"object"}]},"expectStatus":{"description":"Status codes that count as success: codes such as 204 or ranges such as \"200-299\".","type":"array","minItems":1,"items":{"anyOf":[{"type":"integer","minimum":100,"maximum":599},{"type":"string","pattern":"^[1-5][0-9]{2}-[1-5][0-9]{2}$"}]},"default":["200-299"]}}},"job":{"title":"Job","description":"What a run executes.","type":"object","discriminator":{"propertyName":"type"},"oneOf":[{"$ref":"#/$defs/commandJob"},{"$ref":"#/$defs/httpJob"},{"$ref":"#/$defs/queueJob"}]},"queueJob":{"title":"QueueJob","description":"Hands the run to a queue a team already has (graphile-worker, pg-boss or a SQL function); the worker reports back through cronform's SQL functions or the cronform/worker helper.","type":"object","required":["type","system"],"properties":{"type":{"description":"Executor kind.","type":"string","const":"queue"},"system":{"description":"The queue that receives the run.","type":"string","enum":["graphile-worker","pg-boss","sql"]}},"discriminator":{"propertyName":"system"},"oneOf":[{"$ref":"#/$defs/graphileWorkerQueueJob"},{"$ref":"#/$defs/pgBossQueueJob"},{"$ref":"#/$defs/sqlQueueJob"}]},"graphileWorkerQueueJob":{"title":"GraphileWorkerQueueJob","description":"Hands the run to graphile-worker: one job added with graphile_worker.add_job, keyed by the run's idempotency key.","type":"object","additionalProperties":false,"required":["type","system","task"],"properties":{"type":{"description":"Executor kind.","type":"string","const":"queue"},"system":{"description":"The queue that receives the run.","type":"string","const":"graphile-worker"},"url":{"description":"The queue's database, when it is not cronform's: { fromEnv: NAME }, the runner's environment variable holding its connection URL (never a literal: a URL carries credentials). The hand-off is then an outbox keyed by the job key (docs/queue-handoff.md).","anyOf":[{"type":"string"},{"$ref":"#/$defs/secretRef"}]},"task":{"description":"graphile-worker task identifier that the job runs.","type":"string","minLength":1,"maxLength":200},"queueName":{"description":"graphile-worker named queue (jobs in one named queue run one at a time).","type":"string","minLength":1,"maxLength":200},"priority":{"description":"graphile-worker priority: lower runs first.","type":"integer","minimum":-32768,"maximum":32767},"maxAttempts":{"description":"graphile-worker attempts of the job itself (default 1: cronform's retry policy owns retries).","type":"integer","minimum":1,"maximum":32767,"default":1}}},"pgBossQueueJob":{"title":"PgBossQueueJob","description":"Hands the run to pg-boss: one job sent with send(), with singletonKey and a job id derived from the run's idempotency key.","type":"object","additionalProperties":false,"required":["type","system","name"],"properties":{"type":{"description":"Executor kind.","type":"string","const":"queue"},"system":{"description":"The queue that receives the run.","type":"string","const":"pg-boss"},"url":{"description":"The queue's database, when it is not cronform's: { fromEnv: NAME }, the runner's environment variable holding its connection URL (never a literal: a URL carries credentials). The hand-off is then an outbox keyed by the job key (docs/queue-handoff.md).","anyOf":[{"type":"string"},{"$ref":"#/$defs/secretRef"}]},"name":{"description":"pg-boss queue name (created beforehand with createQueue).","type":"string","minLength":1,"maxLength":200},"options":{"description":"pg-boss send options.","type":"object","additionalProperties":false,"properties":{"priority":{"description":"Higher runs first.","type":"integer","minimum":-1000000,"maximum":1000000},"retryLimit":{"description":"pg-boss retries of the job itself (default 0: cronform's retry policy owns retries).","type":"integer","minimum":0,"maximum":1000},"retryDelay":{"description":"Seconds between pg-boss retries.","type":"integer","minimum":0,"maximum":86400},"retryBackoff":{"description":"Exponential backoff between pg-boss retries.","type":"boolean"},"expireInSeconds":{"description":"pg-boss expiry of an active job.","type":"integer","minimum":1,"maximum":86400}}}}},"sqlQueueJob":{"title":"SqlQueueJob","description":"Hands the run to a home-grown queue: calls one schema-qualified SQL function with bound parameters only.","type":"object","additionalProperties":false,"required":["type","system","function"],"properties":{"type":{"description":"Executor kind.","type":"string","const":"queue"},"system":{"description":"The queue that receives the run.","type":"string","const":"sql"},"url":{"description":"The queue's database, when it is not cronform's: { fromEnv: NAME }, the runner's environment variable holding its connection URL (never a literal: a URL carries credentials). The hand-off is then an outbox keyed by the job key (docs/queue-handoff.md).","anyOf":[{"type":"string"},{"$ref":"#/$defs/secretRef"}]},"function":{"description":"Schema-qualified function to call, e.g. app.enqueue_report. It runs with the runner's database role: review it like code.","type":"string","pattern":"^[a-z_][a-z0-9_]{0,62}\\.[a-z_][a-z0-9_]{0,62}$"},"arguments":{"description":"Named arguments (function parameter name: run value). Without it the function gets one jsonb argument: the whole queue payload.","type":"object","maxProperties":20,"propertyNames":{"pattern":"^[a-z_][a-z0-9_]{0,62}$"},"additionalProperties":{"type":"string","enum":["document","scheduleRunId","attempt","idempotencyKey","schedule","businessDate","scheduledFor","trigger","payload"]}}}},"commandStep":{"title":"CommandStep","description":"One step of a workflow that runs a program directly (argv, no shell): a command job plus its name, and optionally its own timeout and retry.","type":"object","additionalProperties":false,"required":["name","type","command"],"properties":{"name":{"$ref":"#/$defs/name","description":"Step name, unique in the schedule; later steps read its result as {{steps.<name>.output.<key>}}."},"type":{"description":"Executor kind.","type":"string","const":"command"},"command":{"$ref":"#/$defs/commandJob/properties/command"},"cwd":{"$ref":"#/$defs/commandJob/properties/cwd"},"env":{"$ref":"#/$defs/commandJob/properties/env"},"timeout":{"$ref":"#/$defs/duration","description":"Maximum runtime of this step; only its own process group is killed after it. At most the schedule's timeout, which stays the budget of the whole attempt."},"retry":{"$ref":"#/$defs/retry","description":"Retries of this step inside one attempt, before the attempt fails at it."}}},"httpStep":{"title":"HttpStep","description":"One step of a workflow that sends one HTTP request: an http job plus its name, and optionally its own timeout and retry.","type":"object","additionalProperties":false,"required":["name","type","url"],"properties":{"name":{"$ref":"#/$defs/name","description":"Step name, unique in the schedule; later steps read its result as {{steps.<name>.output.<key>}}."},"type":{"description":"Executor kind.","type":"string","const":"http"},"url":{"$ref":"#/$defs/httpJob/properties/url"},"method":{"$ref":"#/$defs/httpJob/properties/method"},"headers":{"$ref":"#/$defs/httpJob/properties/headers"},"body":{"$ref":"#/$defs/httpJob/properties/body"},"expectStatus":{"$ref":"#/$defs/httpJob/properties/expectStatus"},"timeout":{"$ref":"#/$defs/duration","description":"Maximum runtime of this step. At most the schedule's timeout, which stays the budget of the whole attempt."},"retry":{"$ref":"#/$defs/retry","description":"Retries of this step inside one attempt, before the attempt fails at it."}}},"step":{"title":"Step","description":"One step of a workflow: a command or http job with a name.","type":"object","discriminator":{"propertyName":"type"},"oneOf":[{"$ref":"#/$defs/commandStep"},{"$ref":"#/$defs/httpStep"}]},"stepsJob":{"title":"StepsJob","description":"A workflow: steps run in order, each a command or http job; a retried run resumes at the first step that did not succeed (docs/workflows.md).","type":"object","additionalProperties":false,"required":["steps"],"properties":{"steps":{"description":"The steps, run in order; names unique.","type":"array","minItems":1,"maxItems":50,"items":{"$ref":"#/$defs/step"}}}},"scheduleJob":{"title":"ScheduleJob","description":"What a run executes: one job (type command or http), or steps (a workflow), never both.","anyOf":[{"$ref":"#/$defs/stepsJob"},{"$ref":"#/$defs/job"}]},"retry":{"title":"RetryPolicy","description":"How failed attempts are retried.","type":"object","additionalProperties":false,"properties":{"maxAttempts":{"description":"Attempts per run, including the first.","type":"integer","minimum":1,"default":1},"backoff":{"description":"Delay growth between attempts.","type":"string","enum":["fixed","exponential"],"default":"exponential"},"initialDelay":{"$ref":"#/$defs/duration","description":"Delay before the first retry.","default":"30s"},"maxDelay":{"$ref":"#/$defs/duration","description":"Upper bound of the delay between attempts.","default":"10m"}}},"dst":{"title":"DstPolicy","description":"What a fixed-time schedule does on DST transitions (interval-like schedules ignore it).","type":"object","additionalProperties":false,"properties":{"gap":{"description":"A local time skipped by DST: shift fires at the same wall time shifted by the gap (02:30 -> 03:30); skip has no slot that day.","type":"string","enum":["shift","skip"],"default":"shift"},"fold":{"description":"A local time repeated by DST: fire at its first occurrence, its second, or both.","type":"string","enum":["first","second","both"],"default":"first"}}},"businessDate":{"title":"BusinessDate","description":"The business date handed to the job, computed from the slot in the schedule's timezone when the run is created.","type":"object","additionalProperties":false,"properties":{"offsetDays":{"description":"Days added to the slot's local date, e.g. -1 for yesterday.","type":"integer","default":0}}},"scheduleSpec":{"title":"ScheduleSpec","description":"When and how a schedule runs.","type":"object","additionalProperties":false,"required":["timezone","job"],"if":{"properties":{"after":false}},"then":{"properties":{"cron":true},"required":["cron"]},"properties":{"cron":{"description":"Cron expression: 5 fields, or 6 with seconds first; or @hourly, @daily, @weekly, @monthly, @yearly. Required unless spec.after is set; with spec.after it is a deadline.","type":"string","minLength":1},"timezone":{"description":"IANA time zone in which the cron expression is evaluated, e.g. Asia/Seoul. Never the server's zone.","type":"string","minLength":1},"enabled":{"description":"false keeps history and stops scheduling.","type":"boolean","default":true},"dayMatch":{"description":"Required when both day-of-month and day-of-week are restricted: any fires when either matches (classic cron), all when both match.","type":"string","enum":["any","all"]},"job":{"$ref":"#/$defs/scheduleJob"},"timeout":{"$ref":"#/$defs/duration","description":"Maximum runtime of one attempt (= maxRuntime); the attempt's whole process group is killed after it (SIGTERM, then SIGKILL). Default: 90% of the shortest interval between slots, at most 1h."},"overlap":{"description":"What a slot does while a run of this schedule is active.","type":"string","enum":["ALLOW","SKIP_NEW","QUEUE_NEW"],"default":"SKIP_NEW"},"misfire":{"description":"What happens to slots missed while no runner was processing them.","type":"string","enum":["SKIP","RUN_ONCE","CATCH_UP_ALL","MANUAL"],"default":"RUN_ONCE"},"maxCatchUp":{"description":"Cap on runs created by CATCH_UP_ALL for one outage.","type":"integer","minimum":1,"default":100},"gracePeriod":{"$ref":"#/$defs/duration","description":"A slot later than this is never run automatically. Default: one period of the schedule, at least 1m."},"freshness":{"$ref":"#/$defs/duration","description":"Freshness SLO: an alert fires when the last successful run is older than this, e.g. 26h for a daily job. Unset: no freshness alert."},"retention":{"$ref":"#/$defs/retention","description":"This schedule's run retention; fields left out come from the Policy's retention."},"retry":{"$ref":"#/$defs/retry"},"onStall":{"description":"What an expired lease (a runner that stopped heartbeating) leads to.","type":"string","enum":["retry","fail","manual"],"default":"retry"},"priority":{"$ref":"#/$defs/priority","default":"NORMAL"},"criticality":{"description":"How loudly failures and missed starts alert.","type":"string","enum":["CRITICAL","HIGH","MEDIUM","LOW"],"default":"MEDIUM"},"queue":{"$ref":"#/$defs/name","description":"Concurrency group; its limit comes from the Policy.","default":"default"},"jitter":{"$ref":"#/$defs/duration","description":"Maximum start delay, deterministic per (schedule, slot), never past the next slot.","default":"0s"},"dst":{"$ref":"#/$defs/dst"},"businessDate":{"$ref":"#/$defs/businessDate"},"approval":{"description":"required: runs wait in MANUAL_REQUIRED until approved.","type":"string","enum":["none","required"],"default":"none"},"payload":{"description":"Small, non-secret JSON handed to the job (CRONFORM_PAYLOAD).","type":"object"},"allowedFailures":{"description":"Failed items (reported by the job with cronform progress) a run may have and still end PARTIAL_SUCCESS instead of FAILED: a count (10) or a percent of the run's items (\"1%\"). Unset: none.","oneOf":[{"type":"integer","minimum":0},{"type":"string","pattern":"^(100|[0-9]{1,2}(\\.[0-9]{1,2})?)%$"}]},"safety":{"title":"Safety","description":"Guards for destructive jobs: a real run whose job asks (cronform guard --affects N) or reports (cronform progress --would-affect N) more than maxAffected waits in MANUAL_REQUIRED for approve.","type":"object","additionalProperties":false,"required":["maxAffected"],"properties":{"maxAffected":{"description":"Most rows, files or records one run may affect without approval.","type":"integer","minimum":0}}},"after":{"description":"Upstream schedules, at most 10, each named once. One upstream: each of its SUCCESS runs creates exactly one DEPENDENCY run of this schedule, with its business date. Several (a join): one DEPENDENCY run per business date, once every upstream has a SUCCESS run for that date. Without cron the schedule has no slots of its own; with cron, each slot is a deadline.","type":"array","minItems":1,"maxItems":10,"items":{"$ref":"#/$defs/dependency"}},"inputs":{"description":"Values computed once per run from its context and frozen (identical on every retry): templates such as \"{{businessDate}}\" or \"{{businessDate - 7d}}\". Jobs receive them as CRONFORM_INPUTS (JSON) and {{inputs.NAME}}.","type":"object","maxProperties":32,"propertyNames":{"pattern":"^[A-Za-z][A-Za-z0-9_]{0,62}$"},"additionalProperties":{"type":"string","maxLength":256}}}},"dependency":{"title":"Dependency","description":"One upstream schedule this schedule runs after.","type":"object","additionalProperties":false,"required":["schedule"],"properties":{"schedule":{"$ref":"#/$defs/name","description":"metadata.name of the upstream schedule."},"status":{"description":"The upstream outcome that triggers this schedule.","type":"string","enum":["SUCCESS"],"default":"SUCCESS"}}},"queueLimits":{"title":"QueueLimits","description":"Limits of one queue.","type":"object","additionalProperties":false,"required":["concurrency"],"properties":{"concurrency":{"description":"Runs of this queue executing at once, across all runners.","type":"integer","minimum":1}}},"alertTarget":{"title":"AlertTarget","description":"A receiver of alerts: cronform's JSON webhook or a Slack incoming webhook (README, Alerts).","type":"object","additionalProperties":false,"required":["name","type","url"],"properties":{"name":{"$ref":"#/$defs/name","description":"Target name, unique in the Policy; alerts record deliveries by it."},"type":{"description":"Payload format: webhook (cronform's JSON) or slack (incoming-webhook format).","type":"string","enum":["webhook","slack"]},"url":{"description":"An http(s) URL, or { fromEnv: NAME } to read it from the runner's environment (a Slack webhook URL is a credential: prefer fromEnv).","anyOf":[{"type":"string","format":"uri","pattern":"^https?://"},{"$ref":"#/$defs/secretRef"}]}}},"policySpec":{"title":"PolicySpec","description":"Repository-wide limits and defaults.","type":"object","additionalProperties":false,"properties":{"minInterval":{"$ref":"#/$defs/duration","description":"Smallest allowed interval between two slots of a schedule.","default":"1m"},"maxRunsPerDay":{"description":"Most runs per local day allowed for one schedule.","type":"integer","minimum":1,"default":1440},"risk":{"title":"RiskThresholds","description":"Thresholds of plan risk findings.","type":"object","additionalProperties":false,"properties":{"runsPerDayIncreaseHigh":{"description":"Ratio of runs per day after/before a change that makes it HIGH risk.","type":"number","exclusiveMinimum":1,"default":10},"acceptanceMaxDays":{"description":"How many days ahead a risk acceptance's until may be (metadata.riskAccepted); a later date is a validation error (CF034).","type":"integer","minimum":1,"default":90}}},"misfireThreshold":{"$ref":"#/$defs/duration","description":"A slot processed later than this counts as missed.","default":"1m"},"queues":{"description":"Queues by name with their limits.","type":"object","propertyNames":{"$ref":"#/$defs/name"},"additionalProperties":{"$ref":"#/$defs/queueLimits"}},"backfill":{"title":"BackfillPolicy","description":"Limits of backfill runs.","type":"object","additionalProperties":false,"properties":{"concurrency":{"description":"Backfill runs executing at once.","type":"integer","minimum":1,"default":2},"priority":{"$ref":"#/$defs/priority","default":"LOW"}}},"retention":{"$ref":"#/$defs/retention","description":"Run retention of every schedule; a schedule's spec.retention overrides it field by field. Unset: runs are kept forever."},"alerts":{"title":"AlertsPolicy","description":"Where alerts go; which rules fire comes from each schedule's criticality (README, Alerts).","type":"object","additionalProperties":false,"required":["targets"],"properties":{"targets":{"description":"Receivers of every alert, names unique.","type":"array","items":{"$ref":"#/$defs/alertTarget"}}}}}},"scheduleManifest":{"title":"ScheduleManifest","description":"A scheduled job.","type":"object","additionalProperties":false,"required":["apiVersion","kind","metadata","spec"],"properties":{"apiVersion":{"$ref":"#/$defs/apiVersion"},"kind":{"description":"Document kind.","type":"string","const":"Schedule"},"metadata":{"$ref":"#/$defs/scheduleMetadata"},"spec":{"$ref":"#/$defs/scheduleSpec"}}},"policyManifest":{"title":"PolicyManifest","description":"Repository-wide limits and defaults; at most one per repository.","type":"object","additionalProperties":false,"required":["apiVersion","kind","metadata","spec"],"properties":{"apiVersion":{"$ref":"#/$defs/apiVersion"},"kind":{"description":"Document kind.","type":"string","const":"Policy"},"metadata":{"$ref":"#/$defs/policyMetadata"},"spec":{"$ref":"#/$defs/policySpec"}}}}};
const schema32 = {"title":"ScheduleManifest","description":"A scheduled job.","type":"object","additionalProperties":false,"required":["apiVersion","kind","metadata","spec"],"properties":{"apiVersion":{"$ref":"#/$defs/apiVersion"},"kind":{"description":"Document kind.","type":"string","const":"Schedule"},"metadata":{"$ref":"#/$defs/scheduleMetadata"},"spec":{"$ref":"#/$defs/scheduleSpec"}}};
const schema33 = {"description":"Manifest format version.","type":"string","const":"cronform/v1"};
const schema34 = {"title":"ScheduleMetadata","description":"Identity and ownership of a schedule.","type":"object","additionalProperties":false,"required":["name"],"properties":{"name":{"$ref":"#/$defs/name","description":"Schedule name, unique in the repository."},"description":{"description":"What the schedule does, for humans.","type":"string"},"owner":{"description":"Team or person responsible for the schedule.","type":"string"},"labels":{"$ref":"#/$defs/labels"},"previousName":{"$ref":"#/$defs/name","description":"The schedule's former name: declares a rename, so history is kept."},"riskAccepted":{"description":"Plan risk findings accepted for this schedule.","type":"array","items":{"$ref":"#/$defs/riskAcceptance"}}}};
const schema35 = {"description":"A DNS-label-like name: lowercase letters, digits and '-', starting and ending with a letter or digit, at most 63 characters.","type":"string","pattern":"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$","maxLength":63};
const schema36 = {"title":"Labels","description":"Free-form string labels, e.g. { team: platform }.","type":"object","additionalProperties":{"type":"string"}};
const schema38 = {"title":"RiskAcceptance","description":"An accepted plan risk finding: shown as accepted in plans, never hidden.","type":"object","additionalProperties":false,"required":["code","reason","until"],"properties":{"code":{"description":"The finding code accepted, e.g. CF101.","type":"string","pattern":"^CF[0-9]{3}$"},"reason":{"description":"Why the risk is accepted.","type":"string","minLength":1},"until":{"description":"Last day (YYYY-MM-DD) the acceptance holds.","type":"string","format":"date"}}};
const func1 = require("ajv/dist/runtime/ucs2length").default;
const pattern4 = new RegExp("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "u");
const pattern6 = new RegExp("^CF[0-9]{3}$", "u");
const formats0 = schemaFormats.date;

function validate22(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate22.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'",schema:schema34.required,parentSchema:schema34,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
for(const key0 in data){
if(!((((((key0 === "name") || (key0 === "description")) || (key0 === "owner")) || (key0 === "labels")) || (key0 === "previousName")) || (key0 === "riskAccepted"))){
const err1 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema34,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.name !== undefined){
let data0 = data.name;
if(typeof data0 === "string"){
if(func1(data0) > 63){
const err2 = {instancePath:instancePath+"/name",schemaPath:"#/$defs/name/maxLength",keyword:"maxLength",params:{limit: 63},message:"must NOT have more than 63 characters",schema:63,parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(!pattern4.test(data0)){
const err3 = {instancePath:instancePath+"/name",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"},message:"must match pattern \""+"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"+"\"",schema:"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/name",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.description !== undefined){
let data1 = data.description;
if(typeof data1 !== "string"){
const err5 = {instancePath:instancePath+"/description",schemaPath:"#/properties/description/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema34.properties.description.type,parentSchema:schema34.properties.description,data:data1};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.owner !== undefined){
let data2 = data.owner;
if(typeof data2 !== "string"){
const err6 = {instancePath:instancePath+"/owner",schemaPath:"#/properties/owner/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema34.properties.owner.type,parentSchema:schema34.properties.owner,data:data2};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.labels !== undefined){
let data3 = data.labels;
if(data3 && typeof data3 == "object" && !Array.isArray(data3)){
for(const key1 in data3){
let data4 = data3[key1];
if(typeof data4 !== "string"){
const err7 = {instancePath:instancePath+"/labels/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/labels/additionalProperties/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema36.additionalProperties.type,parentSchema:schema36.additionalProperties,data:data4};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
}
else {
const err8 = {instancePath:instancePath+"/labels",schemaPath:"#/$defs/labels/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema36.type,parentSchema:schema36,data:data3};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.previousName !== undefined){
let data5 = data.previousName;
if(typeof data5 === "string"){
if(func1(data5) > 63){
const err9 = {instancePath:instancePath+"/previousName",schemaPath:"#/$defs/name/maxLength",keyword:"maxLength",params:{limit: 63},message:"must NOT have more than 63 characters",schema:63,parentSchema:schema35,data:data5};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if(!pattern4.test(data5)){
const err10 = {instancePath:instancePath+"/previousName",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"},message:"must match pattern \""+"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"+"\"",schema:"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",parentSchema:schema35,data:data5};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
else {
const err11 = {instancePath:instancePath+"/previousName",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:data5};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.riskAccepted !== undefined){
let data6 = data.riskAccepted;
if(Array.isArray(data6)){
const len0 = data6.length;
for(let i0=0; i0<len0; i0++){
let data7 = data6[i0];
if(data7 && typeof data7 == "object" && !Array.isArray(data7)){
if(data7.code === undefined){
const err12 = {instancePath:instancePath+"/riskAccepted/" + i0,schemaPath:"#/$defs/riskAcceptance/required",keyword:"required",params:{missingProperty: "code"},message:"must have required property '"+"code"+"'",schema:schema38.required,parentSchema:schema38,data:data7};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if(data7.reason === undefined){
const err13 = {instancePath:instancePath+"/riskAccepted/" + i0,schemaPath:"#/$defs/riskAcceptance/required",keyword:"required",params:{missingProperty: "reason"},message:"must have required property '"+"reason"+"'",schema:schema38.required,parentSchema:schema38,data:data7};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
if(data7.until === undefined){
const err14 = {instancePath:instancePath+"/riskAccepted/" + i0,schemaPath:"#/$defs/riskAcceptance/required",keyword:"required",params:{missingProperty: "until"},message:"must have required property '"+"until"+"'",schema:schema38.required,parentSchema:schema38,data:data7};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
for(const key2 in data7){
if(!(((key2 === "code") || (key2 === "reason")) || (key2 === "until"))){
const err15 = {instancePath:instancePath+"/riskAccepted/" + i0,schemaPath:"#/$defs/riskAcceptance/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2},message:"must NOT have additional properties",schema:false,parentSchema:schema38,data:data7};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data7.code !== undefined){
let data8 = data7.code;
if(typeof data8 === "string"){
if(!pattern6.test(data8)){
const err16 = {instancePath:instancePath+"/riskAccepted/" + i0+"/code",schemaPath:"#/$defs/riskAcceptance/properties/code/pattern",keyword:"pattern",params:{pattern: "^CF[0-9]{3}$"},message:"must match pattern \""+"^CF[0-9]{3}$"+"\"",schema:"^CF[0-9]{3}$",parentSchema:schema38.properties.code,data:data8};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
else {
const err17 = {instancePath:instancePath+"/riskAccepted/" + i0+"/code",schemaPath:"#/$defs/riskAcceptance/properties/code/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema38.properties.code.type,parentSchema:schema38.properties.code,data:data8};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data7.reason !== undefined){
let data9 = data7.reason;
if(typeof data9 === "string"){
if(func1(data9) < 1){
const err18 = {instancePath:instancePath+"/riskAccepted/" + i0+"/reason",schemaPath:"#/$defs/riskAcceptance/properties/reason/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema38.properties.reason,data:data9};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
else {
const err19 = {instancePath:instancePath+"/riskAccepted/" + i0+"/reason",schemaPath:"#/$defs/riskAcceptance/properties/reason/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema38.properties.reason.type,parentSchema:schema38.properties.reason,data:data9};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data7.until !== undefined){
let data10 = data7.until;
if(typeof data10 === "string"){
if(!(formats0.validate(data10))){
const err20 = {instancePath:instancePath+"/riskAccepted/" + i0+"/until",schemaPath:"#/$defs/riskAcceptance/properties/until/format",keyword:"format",params:{format: "date"},message:"must match format \""+"date"+"\"",schema:"date",parentSchema:schema38.properties.until,data:data10};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
else {
const err21 = {instancePath:instancePath+"/riskAccepted/" + i0+"/until",schemaPath:"#/$defs/riskAcceptance/properties/until/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema38.properties.until.type,parentSchema:schema38.properties.until,data:data10};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
}
else {
const err22 = {instancePath:instancePath+"/riskAccepted/" + i0,schemaPath:"#/$defs/riskAcceptance/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema38.type,parentSchema:schema38,data:data7};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
}
else {
const err23 = {instancePath:instancePath+"/riskAccepted",schemaPath:"#/properties/riskAccepted/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema34.properties.riskAccepted.type,parentSchema:schema34.properties.riskAccepted,data:data6};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
}
else {
const err24 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema34.type,parentSchema:schema34,data};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
validate22.errors = vErrors;
return errors === 0;
}
validate22.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema39 = {"title":"ScheduleSpec","description":"When and how a schedule runs.","type":"object","additionalProperties":false,"required":["timezone","job"],"if":{"properties":{"after":false}},"then":{"properties":{"cron":true},"required":["cron"]},"properties":{"cron":{"description":"Cron expression: 5 fields, or 6 with seconds first; or @hourly, @daily, @weekly, @monthly, @yearly. Required unless spec.after is set; with spec.after it is a deadline.","type":"string","minLength":1},"timezone":{"description":"IANA time zone in which the cron expression is evaluated, e.g. Asia/Seoul. Never the server's zone.","type":"string","minLength":1},"enabled":{"description":"false keeps history and stops scheduling.","type":"boolean","default":true},"dayMatch":{"description":"Required when both day-of-month and day-of-week are restricted: any fires when either matches (classic cron), all when both match.","type":"string","enum":["any","all"]},"job":{"$ref":"#/$defs/scheduleJob"},"timeout":{"$ref":"#/$defs/duration","description":"Maximum runtime of one attempt (= maxRuntime); the attempt's whole process group is killed after it (SIGTERM, then SIGKILL). Default: 90% of the shortest interval between slots, at most 1h."},"overlap":{"description":"What a slot does while a run of this schedule is active.","type":"string","enum":["ALLOW","SKIP_NEW","QUEUE_NEW"],"default":"SKIP_NEW"},"misfire":{"description":"What happens to slots missed while no runner was processing them.","type":"string","enum":["SKIP","RUN_ONCE","CATCH_UP_ALL","MANUAL"],"default":"RUN_ONCE"},"maxCatchUp":{"description":"Cap on runs created by CATCH_UP_ALL for one outage.","type":"integer","minimum":1,"default":100},"gracePeriod":{"$ref":"#/$defs/duration","description":"A slot later than this is never run automatically. Default: one period of the schedule, at least 1m."},"freshness":{"$ref":"#/$defs/duration","description":"Freshness SLO: an alert fires when the last successful run is older than this, e.g. 26h for a daily job. Unset: no freshness alert."},"retention":{"$ref":"#/$defs/retention","description":"This schedule's run retention; fields left out come from the Policy's retention."},"retry":{"$ref":"#/$defs/retry"},"onStall":{"description":"What an expired lease (a runner that stopped heartbeating) leads to.","type":"string","enum":["retry","fail","manual"],"default":"retry"},"priority":{"$ref":"#/$defs/priority","default":"NORMAL"},"criticality":{"description":"How loudly failures and missed starts alert.","type":"string","enum":["CRITICAL","HIGH","MEDIUM","LOW"],"default":"MEDIUM"},"queue":{"$ref":"#/$defs/name","description":"Concurrency group; its limit comes from the Policy.","default":"default"},"jitter":{"$ref":"#/$defs/duration","description":"Maximum start delay, deterministic per (schedule, slot), never past the next slot.","default":"0s"},"dst":{"$ref":"#/$defs/dst"},"businessDate":{"$ref":"#/$defs/businessDate"},"approval":{"description":"required: runs wait in MANUAL_REQUIRED until approved.","type":"string","enum":["none","required"],"default":"none"},"payload":{"description":"Small, non-secret JSON handed to the job (CRONFORM_PAYLOAD).","type":"object"},"allowedFailures":{"description":"Failed items (reported by the job with cronform progress) a run may have and still end PARTIAL_SUCCESS instead of FAILED: a count (10) or a percent of the run's items (\"1%\"). Unset: none.","oneOf":[{"type":"integer","minimum":0},{"type":"string","pattern":"^(100|[0-9]{1,2}(\\.[0-9]{1,2})?)%$"}]},"safety":{"title":"Safety","description":"Guards for destructive jobs: a real run whose job asks (cronform guard --affects N) or reports (cronform progress --would-affect N) more than maxAffected waits in MANUAL_REQUIRED for approve.","type":"object","additionalProperties":false,"required":["maxAffected"],"properties":{"maxAffected":{"description":"Most rows, files or records one run may affect without approval.","type":"integer","minimum":0}}},"after":{"description":"Upstream schedules, at most 10, each named once. One upstream: each of its SUCCESS runs creates exactly one DEPENDENCY run of this schedule, with its business date. Several (a join): one DEPENDENCY run per business date, once every upstream has a SUCCESS run for that date. Without cron the schedule has no slots of its own; with cron, each slot is a deadline.","type":"array","minItems":1,"maxItems":10,"items":{"$ref":"#/$defs/dependency"}},"inputs":{"description":"Values computed once per run from its context and frozen (identical on every retry): templates such as \"{{businessDate}}\" or \"{{businessDate - 7d}}\". Jobs receive them as CRONFORM_INPUTS (JSON) and {{inputs.NAME}}.","type":"object","maxProperties":32,"propertyNames":{"pattern":"^[A-Za-z][A-Za-z0-9_]{0,62}$"},"additionalProperties":{"type":"string","maxLength":256}}}};
const schema50 = {"description":"A duration written as <n>ms|s|m|h|d, e.g. 500ms, 30s, 10m, 2h, 1d.","type":"string","pattern":"^[0-9]+(ms|s|m|h|d)$"};
const schema77 = {"description":"Claim order among due runs: CRITICAL first, LOW last.","type":"string","enum":["CRITICAL","HIGH","NORMAL","LOW"]};
const schema80 = {"title":"DstPolicy","description":"What a fixed-time schedule does on DST transitions (interval-like schedules ignore it).","type":"object","additionalProperties":false,"properties":{"gap":{"description":"A local time skipped by DST: shift fires at the same wall time shifted by the gap (02:30 -> 03:30); skip has no slot that day.","type":"string","enum":["shift","skip"],"default":"shift"},"fold":{"description":"A local time repeated by DST: fire at its first occurrence, its second, or both.","type":"string","enum":["first","second","both"],"default":"first"}}};
const schema81 = {"title":"BusinessDate","description":"The business date handed to the job, computed from the slot in the schedule's timezone when the run is created.","type":"object","additionalProperties":false,"properties":{"offsetDays":{"description":"Days added to the slot's local date, e.g. -1 for yesterday.","type":"integer","default":0}}};
const func4 = Object.prototype.hasOwnProperty;
const schema40 = {"title":"ScheduleJob","description":"What a run executes: one job (type command or http), or steps (a workflow), never both.","anyOf":[{"$ref":"#/$defs/stepsJob"},{"$ref":"#/$defs/job"}]};
const schema41 = {"title":"StepsJob","description":"A workflow: steps run in order, each a command or http job; a retried run resumes at the first step that did not succeed (docs/workflows.md).","type":"object","additionalProperties":false,"required":["steps"],"properties":{"steps":{"description":"The steps, run in order; names unique.","type":"array","minItems":1,"maxItems":50,"items":{"$ref":"#/$defs/step"}}}};
const schema42 = {"title":"Step","description":"One step of a workflow: a command or http job with a name.","type":"object","discriminator":{"propertyName":"type"},"oneOf":[{"$ref":"#/$defs/commandStep"},{"$ref":"#/$defs/httpStep"}]};
const schema43 = {"title":"CommandStep","description":"One step of a workflow that runs a program directly (argv, no shell): a command job plus its name, and optionally its own timeout and retry.","type":"object","additionalProperties":false,"required":["name","type","command"],"properties":{"name":{"$ref":"#/$defs/name","description":"Step name, unique in the schedule; later steps read its result as {{steps.<name>.output.<key>}}."},"type":{"description":"Executor kind.","type":"string","const":"command"},"command":{"$ref":"#/$defs/commandJob/properties/command"},"cwd":{"$ref":"#/$defs/commandJob/properties/cwd"},"env":{"$ref":"#/$defs/commandJob/properties/env"},"timeout":{"$ref":"#/$defs/duration","description":"Maximum runtime of this step; only its own process group is killed after it. At most the schedule's timeout, which stays the budget of the whole attempt."},"retry":{"$ref":"#/$defs/retry","description":"Retries of this step inside one attempt, before the attempt fails at it."}}};
const schema45 = {"description":"argv: program and arguments, no shell. Arguments may use {{businessDate}}.","type":"array","minItems":1,"items":{"type":"string"}};
const schema46 = {"description":"Working directory, relative to the repository root.","type":"string"};
const pattern10 = new RegExp("^[0-9]+(ms|s|m|h|d)$", "u");
const schema47 = {"description":"Extra environment variables: literal non-secret strings, or { fromEnv: NAME } for secrets.","type":"object","propertyNames":{"pattern":"^[A-Za-z_][A-Za-z0-9_]*$"},"additionalProperties":{"$ref":"#/$defs/stringOrSecretRef"}};
const pattern8 = new RegExp("^[A-Za-z_][A-Za-z0-9_]*$", "u");
const schema48 = {"description":"A literal non-secret string, or { fromEnv: NAME } for a secret.","anyOf":[{"type":"string"},{"$ref":"#/$defs/secretRef"}]};
const schema49 = {"title":"SecretRef","description":"A secret passed by reference: the value is read from this environment variable of the runner when the job starts, never stored in the manifest or the database.","type":"object","additionalProperties":false,"required":["fromEnv"],"properties":{"fromEnv":{"description":"Name of the runner's environment variable holding the value.","type":"string","pattern":"^[A-Z_][A-Z0-9_]*$"}}};
const pattern9 = new RegExp("^[A-Z_][A-Z0-9_]*$", "u");

function validate30(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate30.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
const _errs0 = errors;
let valid0 = false;
const _errs1 = errors;
if(typeof data !== "string"){
const err0 = {instancePath,schemaPath:"#/anyOf/0/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema48.anyOf[0].type,parentSchema:schema48.anyOf[0],data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
var _valid0 = _errs1 === errors;
valid0 = valid0 || _valid0;
const _errs3 = errors;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.fromEnv === undefined){
const err1 = {instancePath,schemaPath:"#/$defs/secretRef/required",keyword:"required",params:{missingProperty: "fromEnv"},message:"must have required property '"+"fromEnv"+"'",schema:schema49.required,parentSchema:schema49,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
for(const key0 in data){
if(!(key0 === "fromEnv")){
const err2 = {instancePath,schemaPath:"#/$defs/secretRef/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema49,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.fromEnv !== undefined){
let data0 = data.fromEnv;
if(typeof data0 === "string"){
if(!pattern9.test(data0)){
const err3 = {instancePath:instancePath+"/fromEnv",schemaPath:"#/$defs/secretRef/properties/fromEnv/pattern",keyword:"pattern",params:{pattern: "^[A-Z_][A-Z0-9_]*$"},message:"must match pattern \""+"^[A-Z_][A-Z0-9_]*$"+"\"",schema:"^[A-Z_][A-Z0-9_]*$",parentSchema:schema49.properties.fromEnv,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/fromEnv",schemaPath:"#/$defs/secretRef/properties/fromEnv/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema49.properties.fromEnv.type,parentSchema:schema49.properties.fromEnv,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
}
else {
const err5 = {instancePath,schemaPath:"#/$defs/secretRef/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema49.type,parentSchema:schema49,data};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
var _valid0 = _errs3 === errors;
valid0 = valid0 || _valid0;
if(_valid0){
var props0 = true;
}
if(!valid0){
const err6 = {instancePath,schemaPath:"#/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema48.anyOf,parentSchema:schema48,data};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
else {
errors = _errs0;
if(vErrors !== null){
if(_errs0){
vErrors.length = _errs0;
}
else {
vErrors = null;
}
}
}
validate30.errors = vErrors;
evaluated0.props = props0;
return errors === 0;
}
validate30.evaluated = {"dynamicProps":true,"dynamicItems":false};


function validate29(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate29.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
const _errs1 = errors;
if(typeof key0 === "string"){
if(!pattern8.test(key0)){
const err0 = {instancePath,schemaPath:"#/propertyNames/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z_][A-Za-z0-9_]*$"},message:"must match pattern \""+"^[A-Za-z_][A-Za-z0-9_]*$"+"\"",schema:"^[A-Za-z_][A-Za-z0-9_]*$",parentSchema:schema47.propertyNames,data:key0,propertyName:key0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
var valid0 = _errs1 === errors;
if(!valid0){
const err1 = {instancePath,schemaPath:"#/propertyNames",keyword:"propertyNames",params:{propertyName: key0},message:"property name must be valid",schema:schema47.propertyNames,parentSchema:schema47,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
for(const key1 in data){
if(!(validate30(data[key1], {instancePath:instancePath+"/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data,parentDataProperty:key1,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate30.errors : vErrors.concat(validate30.errors);
errors = vErrors.length;
}
}
}
else {
const err2 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema47.type,parentSchema:schema47,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
validate29.errors = vErrors;
return errors === 0;
}
validate29.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema51 = {"title":"RetryPolicy","description":"How failed attempts are retried.","type":"object","additionalProperties":false,"properties":{"maxAttempts":{"description":"Attempts per run, including the first.","type":"integer","minimum":1,"default":1},"backoff":{"description":"Delay growth between attempts.","type":"string","enum":["fixed","exponential"],"default":"exponential"},"initialDelay":{"$ref":"#/$defs/duration","description":"Delay before the first retry.","default":"30s"},"maxDelay":{"$ref":"#/$defs/duration","description":"Upper bound of the delay between attempts.","default":"10m"}}};

function validate33(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate33.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!((((key0 === "maxAttempts") || (key0 === "backoff")) || (key0 === "initialDelay")) || (key0 === "maxDelay"))){
const err0 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema51,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.maxAttempts !== undefined){
let data0 = data.maxAttempts;
if(!(((typeof data0 == "number") && (!(data0 % 1) && !isNaN(data0))) && (isFinite(data0)))){
const err1 = {instancePath:instancePath+"/maxAttempts",schemaPath:"#/properties/maxAttempts/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema51.properties.maxAttempts.type,parentSchema:schema51.properties.maxAttempts,data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if((typeof data0 == "number") && (isFinite(data0))){
if(data0 < 1 || isNaN(data0)){
const err2 = {instancePath:instancePath+"/maxAttempts",schemaPath:"#/properties/maxAttempts/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema51.properties.maxAttempts,data:data0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
}
if(data.backoff !== undefined){
let data1 = data.backoff;
if(typeof data1 !== "string"){
const err3 = {instancePath:instancePath+"/backoff",schemaPath:"#/properties/backoff/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema51.properties.backoff.type,parentSchema:schema51.properties.backoff,data:data1};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(!((data1 === "fixed") || (data1 === "exponential"))){
const err4 = {instancePath:instancePath+"/backoff",schemaPath:"#/properties/backoff/enum",keyword:"enum",params:{allowedValues: schema51.properties.backoff.enum},message:"must be equal to one of the allowed values",schema:schema51.properties.backoff.enum,parentSchema:schema51.properties.backoff,data:data1};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.initialDelay !== undefined){
let data2 = data.initialDelay;
if(typeof data2 === "string"){
if(!pattern10.test(data2)){
const err5 = {instancePath:instancePath+"/initialDelay",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^[0-9]+(ms|s|m|h|d)$"},message:"must match pattern \""+"^[0-9]+(ms|s|m|h|d)$"+"\"",schema:"^[0-9]+(ms|s|m|h|d)$",parentSchema:schema50,data:data2};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
else {
const err6 = {instancePath:instancePath+"/initialDelay",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.type,parentSchema:schema50,data:data2};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.maxDelay !== undefined){
let data3 = data.maxDelay;
if(typeof data3 === "string"){
if(!pattern10.test(data3)){
const err7 = {instancePath:instancePath+"/maxDelay",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^[0-9]+(ms|s|m|h|d)$"},message:"must match pattern \""+"^[0-9]+(ms|s|m|h|d)$"+"\"",schema:"^[0-9]+(ms|s|m|h|d)$",parentSchema:schema50,data:data3};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
else {
const err8 = {instancePath:instancePath+"/maxDelay",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.type,parentSchema:schema50,data:data3};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
}
else {
const err9 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema51.type,parentSchema:schema51,data};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
validate33.errors = vErrors;
return errors === 0;
}
validate33.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate28(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate28.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'",schema:schema43.required,parentSchema:schema43,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.type === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "type"},message:"must have required property '"+"type"+"'",schema:schema43.required,parentSchema:schema43,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.command === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "command"},message:"must have required property '"+"command"+"'",schema:schema43.required,parentSchema:schema43,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!(((((((key0 === "name") || (key0 === "type")) || (key0 === "command")) || (key0 === "cwd")) || (key0 === "env")) || (key0 === "timeout")) || (key0 === "retry"))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema43,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.name !== undefined){
let data0 = data.name;
if(typeof data0 === "string"){
if(func1(data0) > 63){
const err4 = {instancePath:instancePath+"/name",schemaPath:"#/$defs/name/maxLength",keyword:"maxLength",params:{limit: 63},message:"must NOT have more than 63 characters",schema:63,parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(!pattern4.test(data0)){
const err5 = {instancePath:instancePath+"/name",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"},message:"must match pattern \""+"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"+"\"",schema:"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
else {
const err6 = {instancePath:instancePath+"/name",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.type !== undefined){
let data1 = data.type;
if(typeof data1 !== "string"){
const err7 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema43.properties.type.type,parentSchema:schema43.properties.type,data:data1};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
if("command" !== data1){
const err8 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/const",keyword:"const",params:{allowedValue: "command"},message:"must be equal to constant",schema:"command",parentSchema:schema43.properties.type,data:data1};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.command !== undefined){
let data2 = data.command;
if(Array.isArray(data2)){
if(data2.length < 1){
const err9 = {instancePath:instancePath+"/command",schemaPath:"#/$defs/commandJob/properties/command/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items",schema:1,parentSchema:schema45,data:data2};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
const len0 = data2.length;
for(let i0=0; i0<len0; i0++){
let data3 = data2[i0];
if(typeof data3 !== "string"){
const err10 = {instancePath:instancePath+"/command/" + i0,schemaPath:"#/$defs/commandJob/properties/command/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema45.items.type,parentSchema:schema45.items,data:data3};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath:instancePath+"/command",schemaPath:"#/$defs/commandJob/properties/command/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema45.type,parentSchema:schema45,data:data2};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.cwd !== undefined){
let data4 = data.cwd;
if(typeof data4 !== "string"){
const err12 = {instancePath:instancePath+"/cwd",schemaPath:"#/$defs/commandJob/properties/cwd/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema46.type,parentSchema:schema46,data:data4};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.env !== undefined){
if(!(validate29(data.env, {instancePath:instancePath+"/env",parentData:data,parentDataProperty:"env",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate29.errors : vErrors.concat(validate29.errors);
errors = vErrors.length;
}
}
if(data.timeout !== undefined){
let data6 = data.timeout;
if(typeof data6 === "string"){
if(!pattern10.test(data6)){
const err13 = {instancePath:instancePath+"/timeout",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^[0-9]+(ms|s|m|h|d)$"},message:"must match pattern \""+"^[0-9]+(ms|s|m|h|d)$"+"\"",schema:"^[0-9]+(ms|s|m|h|d)$",parentSchema:schema50,data:data6};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
else {
const err14 = {instancePath:instancePath+"/timeout",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.type,parentSchema:schema50,data:data6};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data.retry !== undefined){
if(!(validate33(data.retry, {instancePath:instancePath+"/retry",parentData:data,parentDataProperty:"retry",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate33.errors : vErrors.concat(validate33.errors);
errors = vErrors.length;
}
}
}
else {
const err15 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema43.type,parentSchema:schema43,data};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
validate28.errors = vErrors;
return errors === 0;
}
validate28.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema54 = {"title":"HttpStep","description":"One step of a workflow that sends one HTTP request: an http job plus its name, and optionally its own timeout and retry.","type":"object","additionalProperties":false,"required":["name","type","url"],"properties":{"name":{"$ref":"#/$defs/name","description":"Step name, unique in the schedule; later steps read its result as {{steps.<name>.output.<key>}}."},"type":{"description":"Executor kind.","type":"string","const":"http"},"url":{"$ref":"#/$defs/httpJob/properties/url"},"method":{"$ref":"#/$defs/httpJob/properties/method"},"headers":{"$ref":"#/$defs/httpJob/properties/headers"},"body":{"$ref":"#/$defs/httpJob/properties/body"},"expectStatus":{"$ref":"#/$defs/httpJob/properties/expectStatus"},"timeout":{"$ref":"#/$defs/duration","description":"Maximum runtime of this step. At most the schedule's timeout, which stays the budget of the whole attempt."},"retry":{"$ref":"#/$defs/retry","description":"Retries of this step inside one attempt, before the attempt fails at it."}}};
const schema56 = {"description":"Absolute URL to call.","type":"string","format":"uri"};
const schema57 = {"description":"HTTP method.","type":"string","enum":["GET","POST","PUT","PATCH","DELETE"],"default":"POST"};
const schema59 = {"description":"Request body: a string sent as is, or an object sent as JSON.","anyOf":[{"type":"string"},{"type":"object"}]};
const schema60 = {"description":"Status codes that count as success: codes such as 204 or ranges such as \"200-299\".","type":"array","minItems":1,"items":{"anyOf":[{"type":"integer","minimum":100,"maximum":599},{"type":"string","pattern":"^[1-5][0-9]{2}-[1-5][0-9]{2}$"}]},"default":["200-299"]};
const pattern15 = new RegExp("^[1-5][0-9]{2}-[1-5][0-9]{2}$", "u");
const formats2 = schemaFormats.uri;
const schema58 = {"description":"Request headers: literal non-secret strings, or { fromEnv: NAME } for secrets.","type":"object","propertyNames":{"pattern":"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"},"additionalProperties":{"$ref":"#/$defs/stringOrSecretRef"}};
const pattern14 = new RegExp("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$", "u");

function validate36(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate36.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
const _errs1 = errors;
if(typeof key0 === "string"){
if(!pattern14.test(key0)){
const err0 = {instancePath,schemaPath:"#/propertyNames/pattern",keyword:"pattern",params:{pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"},message:"must match pattern \""+"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"+"\"",schema:"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$",parentSchema:schema58.propertyNames,data:key0,propertyName:key0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
var valid0 = _errs1 === errors;
if(!valid0){
const err1 = {instancePath,schemaPath:"#/propertyNames",keyword:"propertyNames",params:{propertyName: key0},message:"property name must be valid",schema:schema58.propertyNames,parentSchema:schema58,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
for(const key1 in data){
if(!(validate30(data[key1], {instancePath:instancePath+"/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data,parentDataProperty:key1,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate30.errors : vErrors.concat(validate30.errors);
errors = vErrors.length;
}
}
}
else {
const err2 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema58.type,parentSchema:schema58,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
validate36.errors = vErrors;
return errors === 0;
}
validate36.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate35(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate35.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'",schema:schema54.required,parentSchema:schema54,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.type === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "type"},message:"must have required property '"+"type"+"'",schema:schema54.required,parentSchema:schema54,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.url === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "url"},message:"must have required property '"+"url"+"'",schema:schema54.required,parentSchema:schema54,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!(func4.call(schema54.properties, key0))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema54,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.name !== undefined){
let data0 = data.name;
if(typeof data0 === "string"){
if(func1(data0) > 63){
const err4 = {instancePath:instancePath+"/name",schemaPath:"#/$defs/name/maxLength",keyword:"maxLength",params:{limit: 63},message:"must NOT have more than 63 characters",schema:63,parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(!pattern4.test(data0)){
const err5 = {instancePath:instancePath+"/name",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"},message:"must match pattern \""+"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"+"\"",schema:"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
else {
const err6 = {instancePath:instancePath+"/name",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.type !== undefined){
let data1 = data.type;
if(typeof data1 !== "string"){
const err7 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema54.properties.type.type,parentSchema:schema54.properties.type,data:data1};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
if("http" !== data1){
const err8 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/const",keyword:"const",params:{allowedValue: "http"},message:"must be equal to constant",schema:"http",parentSchema:schema54.properties.type,data:data1};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.url !== undefined){
let data2 = data.url;
if(typeof data2 === "string"){
if(!(formats2(data2))){
const err9 = {instancePath:instancePath+"/url",schemaPath:"#/$defs/httpJob/properties/url/format",keyword:"format",params:{format: "uri"},message:"must match format \""+"uri"+"\"",schema:"uri",parentSchema:schema56,data:data2};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
else {
const err10 = {instancePath:instancePath+"/url",schemaPath:"#/$defs/httpJob/properties/url/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema56.type,parentSchema:schema56,data:data2};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.method !== undefined){
let data3 = data.method;
if(typeof data3 !== "string"){
const err11 = {instancePath:instancePath+"/method",schemaPath:"#/$defs/httpJob/properties/method/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema57.type,parentSchema:schema57,data:data3};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
if(!(((((data3 === "GET") || (data3 === "POST")) || (data3 === "PUT")) || (data3 === "PATCH")) || (data3 === "DELETE"))){
const err12 = {instancePath:instancePath+"/method",schemaPath:"#/$defs/httpJob/properties/method/enum",keyword:"enum",params:{allowedValues: schema57.enum},message:"must be equal to one of the allowed values",schema:schema57.enum,parentSchema:schema57,data:data3};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.headers !== undefined){
if(!(validate36(data.headers, {instancePath:instancePath+"/headers",parentData:data,parentDataProperty:"headers",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate36.errors : vErrors.concat(validate36.errors);
errors = vErrors.length;
}
}
if(data.body !== undefined){
let data5 = data.body;
const _errs16 = errors;
let valid5 = false;
const _errs17 = errors;
if(typeof data5 !== "string"){
const err13 = {instancePath:instancePath+"/body",schemaPath:"#/$defs/httpJob/properties/body/anyOf/0/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema59.anyOf[0].type,parentSchema:schema59.anyOf[0],data:data5};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
var _valid0 = _errs17 === errors;
valid5 = valid5 || _valid0;
const _errs19 = errors;
if(!(data5 && typeof data5 == "object" && !Array.isArray(data5))){
const err14 = {instancePath:instancePath+"/body",schemaPath:"#/$defs/httpJob/properties/body/anyOf/1/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema59.anyOf[1].type,parentSchema:schema59.anyOf[1],data:data5};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
var _valid0 = _errs19 === errors;
valid5 = valid5 || _valid0;
if(!valid5){
const err15 = {instancePath:instancePath+"/body",schemaPath:"#/$defs/httpJob/properties/body/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema59.anyOf,parentSchema:schema59,data:data5};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
else {
errors = _errs16;
if(vErrors !== null){
if(_errs16){
vErrors.length = _errs16;
}
else {
vErrors = null;
}
}
}
}
if(data.expectStatus !== undefined){
let data6 = data.expectStatus;
if(Array.isArray(data6)){
if(data6.length < 1){
const err16 = {instancePath:instancePath+"/expectStatus",schemaPath:"#/$defs/httpJob/properties/expectStatus/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items",schema:1,parentSchema:schema60,data:data6};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
const len0 = data6.length;
for(let i0=0; i0<len0; i0++){
let data7 = data6[i0];
const _errs25 = errors;
let valid9 = false;
const _errs26 = errors;
if(!(((typeof data7 == "number") && (!(data7 % 1) && !isNaN(data7))) && (isFinite(data7)))){
const err17 = {instancePath:instancePath+"/expectStatus/" + i0,schemaPath:"#/$defs/httpJob/properties/expectStatus/items/anyOf/0/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema60.items.anyOf[0].type,parentSchema:schema60.items.anyOf[0],data:data7};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
if((typeof data7 == "number") && (isFinite(data7))){
if(data7 > 599 || isNaN(data7)){
const err18 = {instancePath:instancePath+"/expectStatus/" + i0,schemaPath:"#/$defs/httpJob/properties/expectStatus/items/anyOf/0/maximum",keyword:"maximum",params:{comparison: "<=", limit: 599},message:"must be <= 599",schema:599,parentSchema:schema60.items.anyOf[0],data:data7};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
if(data7 < 100 || isNaN(data7)){
const err19 = {instancePath:instancePath+"/expectStatus/" + i0,schemaPath:"#/$defs/httpJob/properties/expectStatus/items/anyOf/0/minimum",keyword:"minimum",params:{comparison: ">=", limit: 100},message:"must be >= 100",schema:100,parentSchema:schema60.items.anyOf[0],data:data7};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
var _valid1 = _errs26 === errors;
valid9 = valid9 || _valid1;
const _errs28 = errors;
if(typeof data7 === "string"){
if(!pattern15.test(data7)){
const err20 = {instancePath:instancePath+"/expectStatus/" + i0,schemaPath:"#/$defs/httpJob/properties/expectStatus/items/anyOf/1/pattern",keyword:"pattern",params:{pattern: "^[1-5][0-9]{2}-[1-5][0-9]{2}$"},message:"must match pattern \""+"^[1-5][0-9]{2}-[1-5][0-9]{2}$"+"\"",schema:"^[1-5][0-9]{2}-[1-5][0-9]{2}$",parentSchema:schema60.items.anyOf[1],data:data7};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
else {
const err21 = {instancePath:instancePath+"/expectStatus/" + i0,schemaPath:"#/$defs/httpJob/properties/expectStatus/items/anyOf/1/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema60.items.anyOf[1].type,parentSchema:schema60.items.anyOf[1],data:data7};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
var _valid1 = _errs28 === errors;
valid9 = valid9 || _valid1;
if(!valid9){
const err22 = {instancePath:instancePath+"/expectStatus/" + i0,schemaPath:"#/$defs/httpJob/properties/expectStatus/items/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema60.items.anyOf,parentSchema:schema60.items,data:data7};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
else {
errors = _errs25;
if(vErrors !== null){
if(_errs25){
vErrors.length = _errs25;
}
else {
vErrors = null;
}
}
}
}
}
else {
const err23 = {instancePath:instancePath+"/expectStatus",schemaPath:"#/$defs/httpJob/properties/expectStatus/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema60.type,parentSchema:schema60,data:data6};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data.timeout !== undefined){
let data8 = data.timeout;
if(typeof data8 === "string"){
if(!pattern10.test(data8)){
const err24 = {instancePath:instancePath+"/timeout",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^[0-9]+(ms|s|m|h|d)$"},message:"must match pattern \""+"^[0-9]+(ms|s|m|h|d)$"+"\"",schema:"^[0-9]+(ms|s|m|h|d)$",parentSchema:schema50,data:data8};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
else {
const err25 = {instancePath:instancePath+"/timeout",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.type,parentSchema:schema50,data:data8};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
if(data.retry !== undefined){
if(!(validate33(data.retry, {instancePath:instancePath+"/retry",parentData:data,parentDataProperty:"retry",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate33.errors : vErrors.concat(validate33.errors);
errors = vErrors.length;
}
}
}
else {
const err26 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema54.type,parentSchema:schema54,data};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
validate35.errors = vErrors;
return errors === 0;
}
validate35.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate27(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate27.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
const tag0 = data.type;
if(typeof tag0 == "string"){
if(tag0 === "command"){
if(!(validate28(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate28.errors : vErrors.concat(validate28.errors);
errors = vErrors.length;
}
var props0 = true;
}
else if(tag0 === "http"){
if(!(validate35(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate35.errors : vErrors.concat(validate35.errors);
errors = vErrors.length;
}
if(props0 !== true){
props0 = true;
}
}
else {
const err0 = {instancePath,schemaPath:"#/discriminator",keyword:"discriminator",params:{error: "mapping", tag: "type", tagValue: tag0},message:"value of tag \"type\" must be in oneOf",schema:schema42.discriminator,parentSchema:schema42,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
else {
const err1 = {instancePath,schemaPath:"#/discriminator",keyword:"discriminator",params:{error: "tag", tag: "type", tagValue: tag0},message:"tag \"type\" must be string",schema:schema42.discriminator,parentSchema:schema42,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
else {
const err2 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema42.type,parentSchema:schema42,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
validate27.errors = vErrors;
evaluated0.props = props0;
return errors === 0;
}
validate27.evaluated = {"dynamicProps":true,"dynamicItems":false};


function validate26(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate26.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.steps === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "steps"},message:"must have required property '"+"steps"+"'",schema:schema41.required,parentSchema:schema41,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
for(const key0 in data){
if(!(key0 === "steps")){
const err1 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema41,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.steps !== undefined){
let data0 = data.steps;
if(Array.isArray(data0)){
if(data0.length > 50){
const err2 = {instancePath:instancePath+"/steps",schemaPath:"#/properties/steps/maxItems",keyword:"maxItems",params:{limit: 50},message:"must NOT have more than 50 items",schema:50,parentSchema:schema41.properties.steps,data:data0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data0.length < 1){
const err3 = {instancePath:instancePath+"/steps",schemaPath:"#/properties/steps/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items",schema:1,parentSchema:schema41.properties.steps,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
if(!(validate27(data0[i0], {instancePath:instancePath+"/steps/" + i0,parentData:data0,parentDataProperty:i0,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate27.errors : vErrors.concat(validate27.errors);
errors = vErrors.length;
}
}
}
else {
const err4 = {instancePath:instancePath+"/steps",schemaPath:"#/properties/steps/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema41.properties.steps.type,parentSchema:schema41.properties.steps,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
}
else {
const err5 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema41.type,parentSchema:schema41,data};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
validate26.errors = vErrors;
return errors === 0;
}
validate26.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema62 = {"title":"Job","description":"What a run executes.","type":"object","discriminator":{"propertyName":"type"},"oneOf":[{"$ref":"#/$defs/commandJob"},{"$ref":"#/$defs/httpJob"},{"$ref":"#/$defs/queueJob"}]};
const schema63 = {"title":"CommandJob","description":"Runs a program directly (argv, no shell).","type":"object","additionalProperties":false,"required":["type","command"],"properties":{"type":{"description":"Executor kind.","type":"string","const":"command"},"command":{"description":"argv: program and arguments, no shell. Arguments may use {{businessDate}}.","type":"array","minItems":1,"items":{"type":"string"}},"cwd":{"description":"Working directory, relative to the repository root.","type":"string"},"env":{"description":"Extra environment variables: literal non-secret strings, or { fromEnv: NAME } for secrets.","type":"object","propertyNames":{"pattern":"^[A-Za-z_][A-Za-z0-9_]*$"},"additionalProperties":{"$ref":"#/$defs/stringOrSecretRef"}}}};

function validate45(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate45.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.type === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "type"},message:"must have required property '"+"type"+"'",schema:schema63.required,parentSchema:schema63,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.command === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "command"},message:"must have required property '"+"command"+"'",schema:schema63.required,parentSchema:schema63,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
for(const key0 in data){
if(!((((key0 === "type") || (key0 === "command")) || (key0 === "cwd")) || (key0 === "env"))){
const err2 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema63,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.type !== undefined){
let data0 = data.type;
if(typeof data0 !== "string"){
const err3 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema63.properties.type.type,parentSchema:schema63.properties.type,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if("command" !== data0){
const err4 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/const",keyword:"const",params:{allowedValue: "command"},message:"must be equal to constant",schema:"command",parentSchema:schema63.properties.type,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.command !== undefined){
let data1 = data.command;
if(Array.isArray(data1)){
if(data1.length < 1){
const err5 = {instancePath:instancePath+"/command",schemaPath:"#/properties/command/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items",schema:1,parentSchema:schema63.properties.command,data:data1};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
const len0 = data1.length;
for(let i0=0; i0<len0; i0++){
let data2 = data1[i0];
if(typeof data2 !== "string"){
const err6 = {instancePath:instancePath+"/command/" + i0,schemaPath:"#/properties/command/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema63.properties.command.items.type,parentSchema:schema63.properties.command.items,data:data2};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
}
else {
const err7 = {instancePath:instancePath+"/command",schemaPath:"#/properties/command/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema63.properties.command.type,parentSchema:schema63.properties.command,data:data1};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.cwd !== undefined){
let data3 = data.cwd;
if(typeof data3 !== "string"){
const err8 = {instancePath:instancePath+"/cwd",schemaPath:"#/properties/cwd/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema63.properties.cwd.type,parentSchema:schema63.properties.cwd,data:data3};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.env !== undefined){
let data4 = data.env;
if(data4 && typeof data4 == "object" && !Array.isArray(data4)){
for(const key1 in data4){
const _errs12 = errors;
if(typeof key1 === "string"){
if(!pattern8.test(key1)){
const err9 = {instancePath:instancePath+"/env",schemaPath:"#/properties/env/propertyNames/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z_][A-Za-z0-9_]*$"},message:"must match pattern \""+"^[A-Za-z_][A-Za-z0-9_]*$"+"\"",schema:"^[A-Za-z_][A-Za-z0-9_]*$",parentSchema:schema63.properties.env.propertyNames,data:key1,propertyName:key1};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
var valid3 = _errs12 === errors;
if(!valid3){
const err10 = {instancePath:instancePath+"/env",schemaPath:"#/properties/env/propertyNames",keyword:"propertyNames",params:{propertyName: key1},message:"property name must be valid",schema:schema63.properties.env.propertyNames,parentSchema:schema63.properties.env,data:data4};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
for(const key2 in data4){
if(!(validate30(data4[key2], {instancePath:instancePath+"/env/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data4,parentDataProperty:key2,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate30.errors : vErrors.concat(validate30.errors);
errors = vErrors.length;
}
}
}
else {
const err11 = {instancePath:instancePath+"/env",schemaPath:"#/properties/env/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema63.properties.env.type,parentSchema:schema63.properties.env,data:data4};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
}
else {
const err12 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema63.type,parentSchema:schema63,data};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
validate45.errors = vErrors;
return errors === 0;
}
validate45.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema64 = {"title":"HttpJob","description":"Sends one HTTP request; the run succeeds when the status matches expectStatus.","type":"object","additionalProperties":false,"required":["type","url"],"properties":{"type":{"description":"Executor kind.","type":"string","const":"http"},"url":{"description":"Absolute URL to call.","type":"string","format":"uri"},"method":{"description":"HTTP method.","type":"string","enum":["GET","POST","PUT","PATCH","DELETE"],"default":"POST"},"headers":{"description":"Request headers: literal non-secret strings, or { fromEnv: NAME } for secrets.","type":"object","propertyNames":{"pattern":"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"},"additionalProperties":{"$ref":"#/$defs/stringOrSecretRef"}},"body":{"description":"Request body: a string sent as is, or an object sent as JSON.","anyOf":[{"type":"string"},{"type":"object"}]},"expectStatus":{"description":"Status codes that count as success: codes such as 204 or ranges such as \"200-299\".","type":"array","minItems":1,"items":{"anyOf":[{"type":"integer","minimum":100,"maximum":599},{"type":"string","pattern":"^[1-5][0-9]{2}-[1-5][0-9]{2}$"}]},"default":["200-299"]}}};

function validate47(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate47.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.type === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "type"},message:"must have required property '"+"type"+"'",schema:schema64.required,parentSchema:schema64,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.url === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "url"},message:"must have required property '"+"url"+"'",schema:schema64.required,parentSchema:schema64,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
for(const key0 in data){
if(!((((((key0 === "type") || (key0 === "url")) || (key0 === "method")) || (key0 === "headers")) || (key0 === "body")) || (key0 === "expectStatus"))){
const err2 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema64,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.type !== undefined){
let data0 = data.type;
if(typeof data0 !== "string"){
const err3 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema64.properties.type.type,parentSchema:schema64.properties.type,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if("http" !== data0){
const err4 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/const",keyword:"const",params:{allowedValue: "http"},message:"must be equal to constant",schema:"http",parentSchema:schema64.properties.type,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.url !== undefined){
let data1 = data.url;
if(typeof data1 === "string"){
if(!(formats2(data1))){
const err5 = {instancePath:instancePath+"/url",schemaPath:"#/properties/url/format",keyword:"format",params:{format: "uri"},message:"must match format \""+"uri"+"\"",schema:"uri",parentSchema:schema64.properties.url,data:data1};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
else {
const err6 = {instancePath:instancePath+"/url",schemaPath:"#/properties/url/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema64.properties.url.type,parentSchema:schema64.properties.url,data:data1};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.method !== undefined){
let data2 = data.method;
if(typeof data2 !== "string"){
const err7 = {instancePath:instancePath+"/method",schemaPath:"#/properties/method/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema64.properties.method.type,parentSchema:schema64.properties.method,data:data2};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
if(!(((((data2 === "GET") || (data2 === "POST")) || (data2 === "PUT")) || (data2 === "PATCH")) || (data2 === "DELETE"))){
const err8 = {instancePath:instancePath+"/method",schemaPath:"#/properties/method/enum",keyword:"enum",params:{allowedValues: schema64.properties.method.enum},message:"must be equal to one of the allowed values",schema:schema64.properties.method.enum,parentSchema:schema64.properties.method,data:data2};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.headers !== undefined){
let data3 = data.headers;
if(data3 && typeof data3 == "object" && !Array.isArray(data3)){
for(const key1 in data3){
const _errs10 = errors;
if(typeof key1 === "string"){
if(!pattern14.test(key1)){
const err9 = {instancePath:instancePath+"/headers",schemaPath:"#/properties/headers/propertyNames/pattern",keyword:"pattern",params:{pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"},message:"must match pattern \""+"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"+"\"",schema:"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$",parentSchema:schema64.properties.headers.propertyNames,data:key1,propertyName:key1};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
var valid1 = _errs10 === errors;
if(!valid1){
const err10 = {instancePath:instancePath+"/headers",schemaPath:"#/properties/headers/propertyNames",keyword:"propertyNames",params:{propertyName: key1},message:"property name must be valid",schema:schema64.properties.headers.propertyNames,parentSchema:schema64.properties.headers,data:data3};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
for(const key2 in data3){
if(!(validate30(data3[key2], {instancePath:instancePath+"/headers/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data3,parentDataProperty:key2,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate30.errors : vErrors.concat(validate30.errors);
errors = vErrors.length;
}
}
}
else {
const err11 = {instancePath:instancePath+"/headers",schemaPath:"#/properties/headers/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema64.properties.headers.type,parentSchema:schema64.properties.headers,data:data3};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.body !== undefined){
let data5 = data.body;
const _errs14 = errors;
let valid3 = false;
const _errs15 = errors;
if(typeof data5 !== "string"){
const err12 = {instancePath:instancePath+"/body",schemaPath:"#/properties/body/anyOf/0/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema64.properties.body.anyOf[0].type,parentSchema:schema64.properties.body.anyOf[0],data:data5};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
var _valid0 = _errs15 === errors;
valid3 = valid3 || _valid0;
const _errs17 = errors;
if(!(data5 && typeof data5 == "object" && !Array.isArray(data5))){
const err13 = {instancePath:instancePath+"/body",schemaPath:"#/properties/body/anyOf/1/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema64.properties.body.anyOf[1].type,parentSchema:schema64.properties.body.anyOf[1],data:data5};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
var _valid0 = _errs17 === errors;
valid3 = valid3 || _valid0;
if(!valid3){
const err14 = {instancePath:instancePath+"/body",schemaPath:"#/properties/body/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema64.properties.body.anyOf,parentSchema:schema64.properties.body,data:data5};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
else {
errors = _errs14;
if(vErrors !== null){
if(_errs14){
vErrors.length = _errs14;
}
else {
vErrors = null;
}
}
}
}
if(data.expectStatus !== undefined){
let data6 = data.expectStatus;
if(Array.isArray(data6)){
if(data6.length < 1){
const err15 = {instancePath:instancePath+"/expectStatus",schemaPath:"#/properties/expectStatus/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items",schema:1,parentSchema:schema64.properties.expectStatus,data:data6};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
const len0 = data6.length;
for(let i0=0; i0<len0; i0++){
let data7 = data6[i0];
const _errs22 = errors;
let valid6 = false;
const _errs23 = errors;
if(!(((typeof data7 == "number") && (!(data7 % 1) && !isNaN(data7))) && (isFinite(data7)))){
const err16 = {instancePath:instancePath+"/expectStatus/" + i0,schemaPath:"#/properties/expectStatus/items/anyOf/0/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema64.properties.expectStatus.items.anyOf[0].type,parentSchema:schema64.properties.expectStatus.items.anyOf[0],data:data7};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
if((typeof data7 == "number") && (isFinite(data7))){
if(data7 > 599 || isNaN(data7)){
const err17 = {instancePath:instancePath+"/expectStatus/" + i0,schemaPath:"#/properties/expectStatus/items/anyOf/0/maximum",keyword:"maximum",params:{comparison: "<=", limit: 599},message:"must be <= 599",schema:599,parentSchema:schema64.properties.expectStatus.items.anyOf[0],data:data7};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
if(data7 < 100 || isNaN(data7)){
const err18 = {instancePath:instancePath+"/expectStatus/" + i0,schemaPath:"#/properties/expectStatus/items/anyOf/0/minimum",keyword:"minimum",params:{comparison: ">=", limit: 100},message:"must be >= 100",schema:100,parentSchema:schema64.properties.expectStatus.items.anyOf[0],data:data7};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
var _valid1 = _errs23 === errors;
valid6 = valid6 || _valid1;
const _errs25 = errors;
if(typeof data7 === "string"){
if(!pattern15.test(data7)){
const err19 = {instancePath:instancePath+"/expectStatus/" + i0,schemaPath:"#/properties/expectStatus/items/anyOf/1/pattern",keyword:"pattern",params:{pattern: "^[1-5][0-9]{2}-[1-5][0-9]{2}$"},message:"must match pattern \""+"^[1-5][0-9]{2}-[1-5][0-9]{2}$"+"\"",schema:"^[1-5][0-9]{2}-[1-5][0-9]{2}$",parentSchema:schema64.properties.expectStatus.items.anyOf[1],data:data7};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
else {
const err20 = {instancePath:instancePath+"/expectStatus/" + i0,schemaPath:"#/properties/expectStatus/items/anyOf/1/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema64.properties.expectStatus.items.anyOf[1].type,parentSchema:schema64.properties.expectStatus.items.anyOf[1],data:data7};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
var _valid1 = _errs25 === errors;
valid6 = valid6 || _valid1;
if(!valid6){
const err21 = {instancePath:instancePath+"/expectStatus/" + i0,schemaPath:"#/properties/expectStatus/items/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema64.properties.expectStatus.items.anyOf,parentSchema:schema64.properties.expectStatus.items,data:data7};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
else {
errors = _errs22;
if(vErrors !== null){
if(_errs22){
vErrors.length = _errs22;
}
else {
vErrors = null;
}
}
}
}
}
else {
const err22 = {instancePath:instancePath+"/expectStatus",schemaPath:"#/properties/expectStatus/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema64.properties.expectStatus.type,parentSchema:schema64.properties.expectStatus,data:data6};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
}
else {
const err23 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema64.type,parentSchema:schema64,data};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
validate47.errors = vErrors;
return errors === 0;
}
validate47.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema65 = {"title":"QueueJob","description":"Hands the run to a queue a team already has (graphile-worker, pg-boss or a SQL function); the worker reports back through cronform's SQL functions or the cronform/worker helper.","type":"object","required":["type","system"],"properties":{"type":{"description":"Executor kind.","type":"string","const":"queue"},"system":{"description":"The queue that receives the run.","type":"string","enum":["graphile-worker","pg-boss","sql"]}},"discriminator":{"propertyName":"system"},"oneOf":[{"$ref":"#/$defs/graphileWorkerQueueJob"},{"$ref":"#/$defs/pgBossQueueJob"},{"$ref":"#/$defs/sqlQueueJob"}]};
const schema66 = {"title":"GraphileWorkerQueueJob","description":"Hands the run to graphile-worker: one job added with graphile_worker.add_job, keyed by the run's idempotency key.","type":"object","additionalProperties":false,"required":["type","system","task"],"properties":{"type":{"description":"Executor kind.","type":"string","const":"queue"},"system":{"description":"The queue that receives the run.","type":"string","const":"graphile-worker"},"url":{"description":"The queue's database, when it is not cronform's: { fromEnv: NAME }, the runner's environment variable holding its connection URL (never a literal: a URL carries credentials). The hand-off is then an outbox keyed by the job key (docs/queue-handoff.md).","anyOf":[{"type":"string"},{"$ref":"#/$defs/secretRef"}]},"task":{"description":"graphile-worker task identifier that the job runs.","type":"string","minLength":1,"maxLength":200},"queueName":{"description":"graphile-worker named queue (jobs in one named queue run one at a time).","type":"string","minLength":1,"maxLength":200},"priority":{"description":"graphile-worker priority: lower runs first.","type":"integer","minimum":-32768,"maximum":32767},"maxAttempts":{"description":"graphile-worker attempts of the job itself (default 1: cronform's retry policy owns retries).","type":"integer","minimum":1,"maximum":32767,"default":1}}};

function validate50(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate50.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.type === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "type"},message:"must have required property '"+"type"+"'",schema:schema66.required,parentSchema:schema66,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.system === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "system"},message:"must have required property '"+"system"+"'",schema:schema66.required,parentSchema:schema66,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.task === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "task"},message:"must have required property '"+"task"+"'",schema:schema66.required,parentSchema:schema66,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!(((((((key0 === "type") || (key0 === "system")) || (key0 === "url")) || (key0 === "task")) || (key0 === "queueName")) || (key0 === "priority")) || (key0 === "maxAttempts"))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema66,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.type !== undefined){
let data0 = data.type;
if(typeof data0 !== "string"){
const err4 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema66.properties.type.type,parentSchema:schema66.properties.type,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if("queue" !== data0){
const err5 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/const",keyword:"const",params:{allowedValue: "queue"},message:"must be equal to constant",schema:"queue",parentSchema:schema66.properties.type,data:data0};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.system !== undefined){
let data1 = data.system;
if(typeof data1 !== "string"){
const err6 = {instancePath:instancePath+"/system",schemaPath:"#/properties/system/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema66.properties.system.type,parentSchema:schema66.properties.system,data:data1};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if("graphile-worker" !== data1){
const err7 = {instancePath:instancePath+"/system",schemaPath:"#/properties/system/const",keyword:"const",params:{allowedValue: "graphile-worker"},message:"must be equal to constant",schema:"graphile-worker",parentSchema:schema66.properties.system,data:data1};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.url !== undefined){
let data2 = data.url;
const _errs7 = errors;
let valid1 = false;
const _errs8 = errors;
if(typeof data2 !== "string"){
const err8 = {instancePath:instancePath+"/url",schemaPath:"#/properties/url/anyOf/0/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema66.properties.url.anyOf[0].type,parentSchema:schema66.properties.url.anyOf[0],data:data2};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
var _valid0 = _errs8 === errors;
valid1 = valid1 || _valid0;
const _errs10 = errors;
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
if(data2.fromEnv === undefined){
const err9 = {instancePath:instancePath+"/url",schemaPath:"#/$defs/secretRef/required",keyword:"required",params:{missingProperty: "fromEnv"},message:"must have required property '"+"fromEnv"+"'",schema:schema49.required,parentSchema:schema49,data:data2};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
for(const key1 in data2){
if(!(key1 === "fromEnv")){
const err10 = {instancePath:instancePath+"/url",schemaPath:"#/$defs/secretRef/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties",schema:false,parentSchema:schema49,data:data2};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data2.fromEnv !== undefined){
let data3 = data2.fromEnv;
if(typeof data3 === "string"){
if(!pattern9.test(data3)){
const err11 = {instancePath:instancePath+"/url/fromEnv",schemaPath:"#/$defs/secretRef/properties/fromEnv/pattern",keyword:"pattern",params:{pattern: "^[A-Z_][A-Z0-9_]*$"},message:"must match pattern \""+"^[A-Z_][A-Z0-9_]*$"+"\"",schema:"^[A-Z_][A-Z0-9_]*$",parentSchema:schema49.properties.fromEnv,data:data3};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
else {
const err12 = {instancePath:instancePath+"/url/fromEnv",schemaPath:"#/$defs/secretRef/properties/fromEnv/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema49.properties.fromEnv.type,parentSchema:schema49.properties.fromEnv,data:data3};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
}
else {
const err13 = {instancePath:instancePath+"/url",schemaPath:"#/$defs/secretRef/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema49.type,parentSchema:schema49,data:data2};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
var _valid0 = _errs10 === errors;
valid1 = valid1 || _valid0;
if(!valid1){
const err14 = {instancePath:instancePath+"/url",schemaPath:"#/properties/url/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema66.properties.url.anyOf,parentSchema:schema66.properties.url,data:data2};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
else {
errors = _errs7;
if(vErrors !== null){
if(_errs7){
vErrors.length = _errs7;
}
else {
vErrors = null;
}
}
}
}
if(data.task !== undefined){
let data4 = data.task;
if(typeof data4 === "string"){
if(func1(data4) > 200){
const err15 = {instancePath:instancePath+"/task",schemaPath:"#/properties/task/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters",schema:200,parentSchema:schema66.properties.task,data:data4};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
if(func1(data4) < 1){
const err16 = {instancePath:instancePath+"/task",schemaPath:"#/properties/task/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema66.properties.task,data:data4};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
else {
const err17 = {instancePath:instancePath+"/task",schemaPath:"#/properties/task/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema66.properties.task.type,parentSchema:schema66.properties.task,data:data4};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data.queueName !== undefined){
let data5 = data.queueName;
if(typeof data5 === "string"){
if(func1(data5) > 200){
const err18 = {instancePath:instancePath+"/queueName",schemaPath:"#/properties/queueName/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters",schema:200,parentSchema:schema66.properties.queueName,data:data5};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
if(func1(data5) < 1){
const err19 = {instancePath:instancePath+"/queueName",schemaPath:"#/properties/queueName/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema66.properties.queueName,data:data5};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
else {
const err20 = {instancePath:instancePath+"/queueName",schemaPath:"#/properties/queueName/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema66.properties.queueName.type,parentSchema:schema66.properties.queueName,data:data5};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(data.priority !== undefined){
let data6 = data.priority;
if(!(((typeof data6 == "number") && (!(data6 % 1) && !isNaN(data6))) && (isFinite(data6)))){
const err21 = {instancePath:instancePath+"/priority",schemaPath:"#/properties/priority/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema66.properties.priority.type,parentSchema:schema66.properties.priority,data:data6};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
if((typeof data6 == "number") && (isFinite(data6))){
if(data6 > 32767 || isNaN(data6)){
const err22 = {instancePath:instancePath+"/priority",schemaPath:"#/properties/priority/maximum",keyword:"maximum",params:{comparison: "<=", limit: 32767},message:"must be <= 32767",schema:32767,parentSchema:schema66.properties.priority,data:data6};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
if(data6 < -32768 || isNaN(data6)){
const err23 = {instancePath:instancePath+"/priority",schemaPath:"#/properties/priority/minimum",keyword:"minimum",params:{comparison: ">=", limit: -32768},message:"must be >= -32768",schema:-32768,parentSchema:schema66.properties.priority,data:data6};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
}
if(data.maxAttempts !== undefined){
let data7 = data.maxAttempts;
if(!(((typeof data7 == "number") && (!(data7 % 1) && !isNaN(data7))) && (isFinite(data7)))){
const err24 = {instancePath:instancePath+"/maxAttempts",schemaPath:"#/properties/maxAttempts/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema66.properties.maxAttempts.type,parentSchema:schema66.properties.maxAttempts,data:data7};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
if((typeof data7 == "number") && (isFinite(data7))){
if(data7 > 32767 || isNaN(data7)){
const err25 = {instancePath:instancePath+"/maxAttempts",schemaPath:"#/properties/maxAttempts/maximum",keyword:"maximum",params:{comparison: "<=", limit: 32767},message:"must be <= 32767",schema:32767,parentSchema:schema66.properties.maxAttempts,data:data7};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
if(data7 < 1 || isNaN(data7)){
const err26 = {instancePath:instancePath+"/maxAttempts",schemaPath:"#/properties/maxAttempts/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema66.properties.maxAttempts,data:data7};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
}
}
else {
const err27 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema66.type,parentSchema:schema66,data};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
validate50.errors = vErrors;
return errors === 0;
}
validate50.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema68 = {"title":"PgBossQueueJob","description":"Hands the run to pg-boss: one job sent with send(), with singletonKey and a job id derived from the run's idempotency key.","type":"object","additionalProperties":false,"required":["type","system","name"],"properties":{"type":{"description":"Executor kind.","type":"string","const":"queue"},"system":{"description":"The queue that receives the run.","type":"string","const":"pg-boss"},"url":{"description":"The queue's database, when it is not cronform's: { fromEnv: NAME }, the runner's environment variable holding its connection URL (never a literal: a URL carries credentials). The hand-off is then an outbox keyed by the job key (docs/queue-handoff.md).","anyOf":[{"type":"string"},{"$ref":"#/$defs/secretRef"}]},"name":{"description":"pg-boss queue name (created beforehand with createQueue).","type":"string","minLength":1,"maxLength":200},"options":{"description":"pg-boss send options.","type":"object","additionalProperties":false,"properties":{"priority":{"description":"Higher runs first.","type":"integer","minimum":-1000000,"maximum":1000000},"retryLimit":{"description":"pg-boss retries of the job itself (default 0: cronform's retry policy owns retries).","type":"integer","minimum":0,"maximum":1000},"retryDelay":{"description":"Seconds between pg-boss retries.","type":"integer","minimum":0,"maximum":86400},"retryBackoff":{"description":"Exponential backoff between pg-boss retries.","type":"boolean"},"expireInSeconds":{"description":"pg-boss expiry of an active job.","type":"integer","minimum":1,"maximum":86400}}}}};

function validate51(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate51.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.type === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "type"},message:"must have required property '"+"type"+"'",schema:schema68.required,parentSchema:schema68,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.system === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "system"},message:"must have required property '"+"system"+"'",schema:schema68.required,parentSchema:schema68,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.name === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'",schema:schema68.required,parentSchema:schema68,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!(((((key0 === "type") || (key0 === "system")) || (key0 === "url")) || (key0 === "name")) || (key0 === "options"))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema68,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.type !== undefined){
let data0 = data.type;
if(typeof data0 !== "string"){
const err4 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema68.properties.type.type,parentSchema:schema68.properties.type,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if("queue" !== data0){
const err5 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/const",keyword:"const",params:{allowedValue: "queue"},message:"must be equal to constant",schema:"queue",parentSchema:schema68.properties.type,data:data0};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.system !== undefined){
let data1 = data.system;
if(typeof data1 !== "string"){
const err6 = {instancePath:instancePath+"/system",schemaPath:"#/properties/system/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema68.properties.system.type,parentSchema:schema68.properties.system,data:data1};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if("pg-boss" !== data1){
const err7 = {instancePath:instancePath+"/system",schemaPath:"#/properties/system/const",keyword:"const",params:{allowedValue: "pg-boss"},message:"must be equal to constant",schema:"pg-boss",parentSchema:schema68.properties.system,data:data1};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.url !== undefined){
let data2 = data.url;
const _errs7 = errors;
let valid1 = false;
const _errs8 = errors;
if(typeof data2 !== "string"){
const err8 = {instancePath:instancePath+"/url",schemaPath:"#/properties/url/anyOf/0/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema68.properties.url.anyOf[0].type,parentSchema:schema68.properties.url.anyOf[0],data:data2};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
var _valid0 = _errs8 === errors;
valid1 = valid1 || _valid0;
const _errs10 = errors;
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
if(data2.fromEnv === undefined){
const err9 = {instancePath:instancePath+"/url",schemaPath:"#/$defs/secretRef/required",keyword:"required",params:{missingProperty: "fromEnv"},message:"must have required property '"+"fromEnv"+"'",schema:schema49.required,parentSchema:schema49,data:data2};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
for(const key1 in data2){
if(!(key1 === "fromEnv")){
const err10 = {instancePath:instancePath+"/url",schemaPath:"#/$defs/secretRef/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties",schema:false,parentSchema:schema49,data:data2};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data2.fromEnv !== undefined){
let data3 = data2.fromEnv;
if(typeof data3 === "string"){
if(!pattern9.test(data3)){
const err11 = {instancePath:instancePath+"/url/fromEnv",schemaPath:"#/$defs/secretRef/properties/fromEnv/pattern",keyword:"pattern",params:{pattern: "^[A-Z_][A-Z0-9_]*$"},message:"must match pattern \""+"^[A-Z_][A-Z0-9_]*$"+"\"",schema:"^[A-Z_][A-Z0-9_]*$",parentSchema:schema49.properties.fromEnv,data:data3};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
else {
const err12 = {instancePath:instancePath+"/url/fromEnv",schemaPath:"#/$defs/secretRef/properties/fromEnv/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema49.properties.fromEnv.type,parentSchema:schema49.properties.fromEnv,data:data3};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
}
else {
const err13 = {instancePath:instancePath+"/url",schemaPath:"#/$defs/secretRef/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema49.type,parentSchema:schema49,data:data2};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
var _valid0 = _errs10 === errors;
valid1 = valid1 || _valid0;
if(!valid1){
const err14 = {instancePath:instancePath+"/url",schemaPath:"#/properties/url/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema68.properties.url.anyOf,parentSchema:schema68.properties.url,data:data2};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
else {
errors = _errs7;
if(vErrors !== null){
if(_errs7){
vErrors.length = _errs7;
}
else {
vErrors = null;
}
}
}
}
if(data.name !== undefined){
let data4 = data.name;
if(typeof data4 === "string"){
if(func1(data4) > 200){
const err15 = {instancePath:instancePath+"/name",schemaPath:"#/properties/name/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters",schema:200,parentSchema:schema68.properties.name,data:data4};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
if(func1(data4) < 1){
const err16 = {instancePath:instancePath+"/name",schemaPath:"#/properties/name/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema68.properties.name,data:data4};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
else {
const err17 = {instancePath:instancePath+"/name",schemaPath:"#/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema68.properties.name.type,parentSchema:schema68.properties.name,data:data4};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data.options !== undefined){
let data5 = data.options;
if(data5 && typeof data5 == "object" && !Array.isArray(data5)){
for(const key2 in data5){
if(!(((((key2 === "priority") || (key2 === "retryLimit")) || (key2 === "retryDelay")) || (key2 === "retryBackoff")) || (key2 === "expireInSeconds"))){
const err18 = {instancePath:instancePath+"/options",schemaPath:"#/properties/options/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2},message:"must NOT have additional properties",schema:false,parentSchema:schema68.properties.options,data:data5};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data5.priority !== undefined){
let data6 = data5.priority;
if(!(((typeof data6 == "number") && (!(data6 % 1) && !isNaN(data6))) && (isFinite(data6)))){
const err19 = {instancePath:instancePath+"/options/priority",schemaPath:"#/properties/options/properties/priority/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema68.properties.options.properties.priority.type,parentSchema:schema68.properties.options.properties.priority,data:data6};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
if((typeof data6 == "number") && (isFinite(data6))){
if(data6 > 1000000 || isNaN(data6)){
const err20 = {instancePath:instancePath+"/options/priority",schemaPath:"#/properties/options/properties/priority/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000000},message:"must be <= 1000000",schema:1000000,parentSchema:schema68.properties.options.properties.priority,data:data6};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
if(data6 < -1000000 || isNaN(data6)){
const err21 = {instancePath:instancePath+"/options/priority",schemaPath:"#/properties/options/properties/priority/minimum",keyword:"minimum",params:{comparison: ">=", limit: -1000000},message:"must be >= -1000000",schema:-1000000,parentSchema:schema68.properties.options.properties.priority,data:data6};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
}
if(data5.retryLimit !== undefined){
let data7 = data5.retryLimit;
if(!(((typeof data7 == "number") && (!(data7 % 1) && !isNaN(data7))) && (isFinite(data7)))){
const err22 = {instancePath:instancePath+"/options/retryLimit",schemaPath:"#/properties/options/properties/retryLimit/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema68.properties.options.properties.retryLimit.type,parentSchema:schema68.properties.options.properties.retryLimit,data:data7};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
if((typeof data7 == "number") && (isFinite(data7))){
if(data7 > 1000 || isNaN(data7)){
const err23 = {instancePath:instancePath+"/options/retryLimit",schemaPath:"#/properties/options/properties/retryLimit/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000},message:"must be <= 1000",schema:1000,parentSchema:schema68.properties.options.properties.retryLimit,data:data7};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
if(data7 < 0 || isNaN(data7)){
const err24 = {instancePath:instancePath+"/options/retryLimit",schemaPath:"#/properties/options/properties/retryLimit/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema68.properties.options.properties.retryLimit,data:data7};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
}
if(data5.retryDelay !== undefined){
let data8 = data5.retryDelay;
if(!(((typeof data8 == "number") && (!(data8 % 1) && !isNaN(data8))) && (isFinite(data8)))){
const err25 = {instancePath:instancePath+"/options/retryDelay",schemaPath:"#/properties/options/properties/retryDelay/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema68.properties.options.properties.retryDelay.type,parentSchema:schema68.properties.options.properties.retryDelay,data:data8};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
if((typeof data8 == "number") && (isFinite(data8))){
if(data8 > 86400 || isNaN(data8)){
const err26 = {instancePath:instancePath+"/options/retryDelay",schemaPath:"#/properties/options/properties/retryDelay/maximum",keyword:"maximum",params:{comparison: "<=", limit: 86400},message:"must be <= 86400",schema:86400,parentSchema:schema68.properties.options.properties.retryDelay,data:data8};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
if(data8 < 0 || isNaN(data8)){
const err27 = {instancePath:instancePath+"/options/retryDelay",schemaPath:"#/properties/options/properties/retryDelay/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema68.properties.options.properties.retryDelay,data:data8};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
}
if(data5.retryBackoff !== undefined){
let data9 = data5.retryBackoff;
if(typeof data9 !== "boolean"){
const err28 = {instancePath:instancePath+"/options/retryBackoff",schemaPath:"#/properties/options/properties/retryBackoff/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema68.properties.options.properties.retryBackoff.type,parentSchema:schema68.properties.options.properties.retryBackoff,data:data9};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
if(data5.expireInSeconds !== undefined){
let data10 = data5.expireInSeconds;
if(!(((typeof data10 == "number") && (!(data10 % 1) && !isNaN(data10))) && (isFinite(data10)))){
const err29 = {instancePath:instancePath+"/options/expireInSeconds",schemaPath:"#/properties/options/properties/expireInSeconds/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema68.properties.options.properties.expireInSeconds.type,parentSchema:schema68.properties.options.properties.expireInSeconds,data:data10};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
if((typeof data10 == "number") && (isFinite(data10))){
if(data10 > 86400 || isNaN(data10)){
const err30 = {instancePath:instancePath+"/options/expireInSeconds",schemaPath:"#/properties/options/properties/expireInSeconds/maximum",keyword:"maximum",params:{comparison: "<=", limit: 86400},message:"must be <= 86400",schema:86400,parentSchema:schema68.properties.options.properties.expireInSeconds,data:data10};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
if(data10 < 1 || isNaN(data10)){
const err31 = {instancePath:instancePath+"/options/expireInSeconds",schemaPath:"#/properties/options/properties/expireInSeconds/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema68.properties.options.properties.expireInSeconds,data:data10};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
}
}
}
else {
const err32 = {instancePath:instancePath+"/options",schemaPath:"#/properties/options/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema68.properties.options.type,parentSchema:schema68.properties.options,data:data5};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
}
}
else {
const err33 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema68.type,parentSchema:schema68,data};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
validate51.errors = vErrors;
return errors === 0;
}
validate51.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema70 = {"title":"SqlQueueJob","description":"Hands the run to a home-grown queue: calls one schema-qualified SQL function with bound parameters only.","type":"object","additionalProperties":false,"required":["type","system","function"],"properties":{"type":{"description":"Executor kind.","type":"string","const":"queue"},"system":{"description":"The queue that receives the run.","type":"string","const":"sql"},"url":{"description":"The queue's database, when it is not cronform's: { fromEnv: NAME }, the runner's environment variable holding its connection URL (never a literal: a URL carries credentials). The hand-off is then an outbox keyed by the job key (docs/queue-handoff.md).","anyOf":[{"type":"string"},{"$ref":"#/$defs/secretRef"}]},"function":{"description":"Schema-qualified function to call, e.g. app.enqueue_report. It runs with the runner's database role: review it like code.","type":"string","pattern":"^[a-z_][a-z0-9_]{0,62}\\.[a-z_][a-z0-9_]{0,62}$"},"arguments":{"description":"Named arguments (function parameter name: run value). Without it the function gets one jsonb argument: the whole queue payload.","type":"object","maxProperties":20,"propertyNames":{"pattern":"^[a-z_][a-z0-9_]{0,62}$"},"additionalProperties":{"type":"string","enum":["document","scheduleRunId","attempt","idempotencyKey","schedule","businessDate","scheduledFor","trigger","payload"]}}}};
const pattern23 = new RegExp("^[a-z_][a-z0-9_]{0,62}\\.[a-z_][a-z0-9_]{0,62}$", "u");
const pattern24 = new RegExp("^[a-z_][a-z0-9_]{0,62}$", "u");

function validate52(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate52.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.type === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "type"},message:"must have required property '"+"type"+"'",schema:schema70.required,parentSchema:schema70,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.system === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "system"},message:"must have required property '"+"system"+"'",schema:schema70.required,parentSchema:schema70,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.function === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "function"},message:"must have required property '"+"function"+"'",schema:schema70.required,parentSchema:schema70,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!(((((key0 === "type") || (key0 === "system")) || (key0 === "url")) || (key0 === "function")) || (key0 === "arguments"))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema70,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.type !== undefined){
let data0 = data.type;
if(typeof data0 !== "string"){
const err4 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema70.properties.type.type,parentSchema:schema70.properties.type,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if("queue" !== data0){
const err5 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/const",keyword:"const",params:{allowedValue: "queue"},message:"must be equal to constant",schema:"queue",parentSchema:schema70.properties.type,data:data0};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.system !== undefined){
let data1 = data.system;
if(typeof data1 !== "string"){
const err6 = {instancePath:instancePath+"/system",schemaPath:"#/properties/system/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema70.properties.system.type,parentSchema:schema70.properties.system,data:data1};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if("sql" !== data1){
const err7 = {instancePath:instancePath+"/system",schemaPath:"#/properties/system/const",keyword:"const",params:{allowedValue: "sql"},message:"must be equal to constant",schema:"sql",parentSchema:schema70.properties.system,data:data1};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.url !== undefined){
let data2 = data.url;
const _errs7 = errors;
let valid1 = false;
const _errs8 = errors;
if(typeof data2 !== "string"){
const err8 = {instancePath:instancePath+"/url",schemaPath:"#/properties/url/anyOf/0/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema70.properties.url.anyOf[0].type,parentSchema:schema70.properties.url.anyOf[0],data:data2};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
var _valid0 = _errs8 === errors;
valid1 = valid1 || _valid0;
const _errs10 = errors;
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
if(data2.fromEnv === undefined){
const err9 = {instancePath:instancePath+"/url",schemaPath:"#/$defs/secretRef/required",keyword:"required",params:{missingProperty: "fromEnv"},message:"must have required property '"+"fromEnv"+"'",schema:schema49.required,parentSchema:schema49,data:data2};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
for(const key1 in data2){
if(!(key1 === "fromEnv")){
const err10 = {instancePath:instancePath+"/url",schemaPath:"#/$defs/secretRef/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties",schema:false,parentSchema:schema49,data:data2};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data2.fromEnv !== undefined){
let data3 = data2.fromEnv;
if(typeof data3 === "string"){
if(!pattern9.test(data3)){
const err11 = {instancePath:instancePath+"/url/fromEnv",schemaPath:"#/$defs/secretRef/properties/fromEnv/pattern",keyword:"pattern",params:{pattern: "^[A-Z_][A-Z0-9_]*$"},message:"must match pattern \""+"^[A-Z_][A-Z0-9_]*$"+"\"",schema:"^[A-Z_][A-Z0-9_]*$",parentSchema:schema49.properties.fromEnv,data:data3};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
else {
const err12 = {instancePath:instancePath+"/url/fromEnv",schemaPath:"#/$defs/secretRef/properties/fromEnv/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema49.properties.fromEnv.type,parentSchema:schema49.properties.fromEnv,data:data3};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
}
else {
const err13 = {instancePath:instancePath+"/url",schemaPath:"#/$defs/secretRef/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema49.type,parentSchema:schema49,data:data2};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
var _valid0 = _errs10 === errors;
valid1 = valid1 || _valid0;
if(!valid1){
const err14 = {instancePath:instancePath+"/url",schemaPath:"#/properties/url/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema70.properties.url.anyOf,parentSchema:schema70.properties.url,data:data2};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
else {
errors = _errs7;
if(vErrors !== null){
if(_errs7){
vErrors.length = _errs7;
}
else {
vErrors = null;
}
}
}
}
if(data.function !== undefined){
let data4 = data.function;
if(typeof data4 === "string"){
if(!pattern23.test(data4)){
const err15 = {instancePath:instancePath+"/function",schemaPath:"#/properties/function/pattern",keyword:"pattern",params:{pattern: "^[a-z_][a-z0-9_]{0,62}\\.[a-z_][a-z0-9_]{0,62}$"},message:"must match pattern \""+"^[a-z_][a-z0-9_]{0,62}\\.[a-z_][a-z0-9_]{0,62}$"+"\"",schema:"^[a-z_][a-z0-9_]{0,62}\\.[a-z_][a-z0-9_]{0,62}$",parentSchema:schema70.properties.function,data:data4};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
else {
const err16 = {instancePath:instancePath+"/function",schemaPath:"#/properties/function/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema70.properties.function.type,parentSchema:schema70.properties.function,data:data4};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data.arguments !== undefined){
let data5 = data.arguments;
if(data5 && typeof data5 == "object" && !Array.isArray(data5)){
if(Object.keys(data5).length > 20){
const err17 = {instancePath:instancePath+"/arguments",schemaPath:"#/properties/arguments/maxProperties",keyword:"maxProperties",params:{limit: 20},message:"must NOT have more than 20 properties",schema:20,parentSchema:schema70.properties.arguments,data:data5};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
for(const key2 in data5){
const _errs20 = errors;
if(typeof key2 === "string"){
if(!pattern24.test(key2)){
const err18 = {instancePath:instancePath+"/arguments",schemaPath:"#/properties/arguments/propertyNames/pattern",keyword:"pattern",params:{pattern: "^[a-z_][a-z0-9_]{0,62}$"},message:"must match pattern \""+"^[a-z_][a-z0-9_]{0,62}$"+"\"",schema:"^[a-z_][a-z0-9_]{0,62}$",parentSchema:schema70.properties.arguments.propertyNames,data:key2,propertyName:key2};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
var valid4 = _errs20 === errors;
if(!valid4){
const err19 = {instancePath:instancePath+"/arguments",schemaPath:"#/properties/arguments/propertyNames",keyword:"propertyNames",params:{propertyName: key2},message:"property name must be valid",schema:schema70.properties.arguments.propertyNames,parentSchema:schema70.properties.arguments,data:data5};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
for(const key3 in data5){
let data6 = data5[key3];
if(typeof data6 !== "string"){
const err20 = {instancePath:instancePath+"/arguments/" + key3.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/arguments/additionalProperties/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema70.properties.arguments.additionalProperties.type,parentSchema:schema70.properties.arguments.additionalProperties,data:data6};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
if(!(((((((((data6 === "document") || (data6 === "scheduleRunId")) || (data6 === "attempt")) || (data6 === "idempotencyKey")) || (data6 === "schedule")) || (data6 === "businessDate")) || (data6 === "scheduledFor")) || (data6 === "trigger")) || (data6 === "payload"))){
const err21 = {instancePath:instancePath+"/arguments/" + key3.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/arguments/additionalProperties/enum",keyword:"enum",params:{allowedValues: schema70.properties.arguments.additionalProperties.enum},message:"must be equal to one of the allowed values",schema:schema70.properties.arguments.additionalProperties.enum,parentSchema:schema70.properties.arguments.additionalProperties,data:data6};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
}
else {
const err22 = {instancePath:instancePath+"/arguments",schemaPath:"#/properties/arguments/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema70.properties.arguments.type,parentSchema:schema70.properties.arguments,data:data5};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
}
else {
const err23 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema70.type,parentSchema:schema70,data};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
validate52.errors = vErrors;
return errors === 0;
}
validate52.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate49(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate49.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.type === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "type"},message:"must have required property '"+"type"+"'",schema:schema65.required,parentSchema:schema65,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.system === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "system"},message:"must have required property '"+"system"+"'",schema:schema65.required,parentSchema:schema65,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.type !== undefined){
let data0 = data.type;
if(typeof data0 !== "string"){
const err2 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema65.properties.type.type,parentSchema:schema65.properties.type,data:data0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if("queue" !== data0){
const err3 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/const",keyword:"const",params:{allowedValue: "queue"},message:"must be equal to constant",schema:"queue",parentSchema:schema65.properties.type,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.system !== undefined){
let data1 = data.system;
if(typeof data1 !== "string"){
const err4 = {instancePath:instancePath+"/system",schemaPath:"#/properties/system/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema65.properties.system.type,parentSchema:schema65.properties.system,data:data1};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(!(((data1 === "graphile-worker") || (data1 === "pg-boss")) || (data1 === "sql"))){
const err5 = {instancePath:instancePath+"/system",schemaPath:"#/properties/system/enum",keyword:"enum",params:{allowedValues: schema65.properties.system.enum},message:"must be equal to one of the allowed values",schema:schema65.properties.system.enum,parentSchema:schema65.properties.system,data:data1};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
const tag0 = data.system;
if(typeof tag0 == "string"){
if(tag0 === "graphile-worker"){
if(!(validate50(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate50.errors : vErrors.concat(validate50.errors);
errors = vErrors.length;
}
var props0 = true;
}
else if(tag0 === "pg-boss"){
if(!(validate51(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate51.errors : vErrors.concat(validate51.errors);
errors = vErrors.length;
}
if(props0 !== true){
props0 = true;
}
}
else if(tag0 === "sql"){
if(!(validate52(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate52.errors : vErrors.concat(validate52.errors);
errors = vErrors.length;
}
if(props0 !== true){
props0 = true;
}
}
else {
const err6 = {instancePath,schemaPath:"#/discriminator",keyword:"discriminator",params:{error: "mapping", tag: "system", tagValue: tag0},message:"value of tag \"system\" must be in oneOf",schema:schema65.discriminator,parentSchema:schema65,data};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
else {
const err7 = {instancePath,schemaPath:"#/discriminator",keyword:"discriminator",params:{error: "tag", tag: "system", tagValue: tag0},message:"tag \"system\" must be string",schema:schema65.discriminator,parentSchema:schema65,data};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
else {
const err8 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema65.type,parentSchema:schema65,data};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
validate49.errors = vErrors;
evaluated0.props = props0;
return errors === 0;
}
validate49.evaluated = {"dynamicProps":true,"dynamicItems":false};


function validate44(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate44.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
const tag0 = data.type;
if(typeof tag0 == "string"){
if(tag0 === "command"){
if(!(validate45(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate45.errors : vErrors.concat(validate45.errors);
errors = vErrors.length;
}
var props0 = true;
}
else if(tag0 === "http"){
if(!(validate47(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate47.errors : vErrors.concat(validate47.errors);
errors = vErrors.length;
}
if(props0 !== true){
props0 = true;
}
}
else if(tag0 === "queue"){
if(!(validate49(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate49.errors : vErrors.concat(validate49.errors);
errors = vErrors.length;
}
else {
var props1 = validate49.evaluated.props;
}
if(props0 !== true && props1 !== undefined){
if(props1 === true){
props0 = true;
}
else {
props0 = props0 || {};
Object.assign(props0, props1);
}
}
}
else {
const err0 = {instancePath,schemaPath:"#/discriminator",keyword:"discriminator",params:{error: "mapping", tag: "type", tagValue: tag0},message:"value of tag \"type\" must be in oneOf",schema:schema62.discriminator,parentSchema:schema62,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
else {
const err1 = {instancePath,schemaPath:"#/discriminator",keyword:"discriminator",params:{error: "tag", tag: "type", tagValue: tag0},message:"tag \"type\" must be string",schema:schema62.discriminator,parentSchema:schema62,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
else {
const err2 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema62.type,parentSchema:schema62,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
validate44.errors = vErrors;
evaluated0.props = props0;
return errors === 0;
}
validate44.evaluated = {"dynamicProps":true,"dynamicItems":false};


function validate25(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate25.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
const _errs0 = errors;
let valid0 = false;
const _errs1 = errors;
if(!(validate26(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate26.errors : vErrors.concat(validate26.errors);
errors = vErrors.length;
}
var _valid0 = _errs1 === errors;
valid0 = valid0 || _valid0;
if(_valid0){
var props0 = true;
}
const _errs2 = errors;
if(!(validate44(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate44.errors : vErrors.concat(validate44.errors);
errors = vErrors.length;
}
else {
var props1 = validate44.evaluated.props;
}
var _valid0 = _errs2 === errors;
valid0 = valid0 || _valid0;
if(_valid0){
if(props0 !== true && props1 !== undefined){
if(props1 === true){
props0 = true;
}
else {
props0 = props0 || {};
Object.assign(props0, props1);
}
}
}
if(!valid0){
const err0 = {instancePath,schemaPath:"#/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema40.anyOf,parentSchema:schema40,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
else {
errors = _errs0;
if(vErrors !== null){
if(_errs0){
vErrors.length = _errs0;
}
else {
vErrors = null;
}
}
}
validate25.errors = vErrors;
evaluated0.props = props0;
return errors === 0;
}
validate25.evaluated = {"dynamicProps":true,"dynamicItems":false};

const schema75 = {"title":"Retention","description":"How long finished runs are kept (README, Retention). The runner deletes a finished run once its slot is older than `runs`, but never one of a schedule's latest `keepLast` runs; daily rollups keep the counts `report` shows. Unset: runs are kept forever.","type":"object","additionalProperties":false,"minProperties":1,"properties":{"runs":{"$ref":"#/$defs/duration","description":"Age (by slot) after which a finished run is deleted, at least 7d, e.g. 90d."},"keepLast":{"description":"The latest this many runs of each schedule are always kept, however old.","type":"integer","minimum":0,"default":100}}};

function validate61(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate61.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(Object.keys(data).length < 1){
const err0 = {instancePath,schemaPath:"#/minProperties",keyword:"minProperties",params:{limit: 1},message:"must NOT have fewer than 1 properties",schema:1,parentSchema:schema75,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
for(const key0 in data){
if(!((key0 === "runs") || (key0 === "keepLast"))){
const err1 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema75,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.runs !== undefined){
let data0 = data.runs;
if(typeof data0 === "string"){
if(!pattern10.test(data0)){
const err2 = {instancePath:instancePath+"/runs",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^[0-9]+(ms|s|m|h|d)$"},message:"must match pattern \""+"^[0-9]+(ms|s|m|h|d)$"+"\"",schema:"^[0-9]+(ms|s|m|h|d)$",parentSchema:schema50,data:data0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
else {
const err3 = {instancePath:instancePath+"/runs",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.type,parentSchema:schema50,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.keepLast !== undefined){
let data1 = data.keepLast;
if(!(((typeof data1 == "number") && (!(data1 % 1) && !isNaN(data1))) && (isFinite(data1)))){
const err4 = {instancePath:instancePath+"/keepLast",schemaPath:"#/properties/keepLast/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema75.properties.keepLast.type,parentSchema:schema75.properties.keepLast,data:data1};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if((typeof data1 == "number") && (isFinite(data1))){
if(data1 < 0 || isNaN(data1)){
const err5 = {instancePath:instancePath+"/keepLast",schemaPath:"#/properties/keepLast/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema75.properties.keepLast,data:data1};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
}
}
else {
const err6 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema75.type,parentSchema:schema75,data};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
validate61.errors = vErrors;
return errors === 0;
}
validate61.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema82 = {"title":"Dependency","description":"One upstream schedule this schedule runs after.","type":"object","additionalProperties":false,"required":["schedule"],"properties":{"schedule":{"$ref":"#/$defs/name","description":"metadata.name of the upstream schedule."},"status":{"description":"The upstream outcome that triggers this schedule.","type":"string","enum":["SUCCESS"],"default":"SUCCESS"}}};

function validate64(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate64.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.schedule === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "schedule"},message:"must have required property '"+"schedule"+"'",schema:schema82.required,parentSchema:schema82,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
for(const key0 in data){
if(!((key0 === "schedule") || (key0 === "status"))){
const err1 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema82,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.schedule !== undefined){
let data0 = data.schedule;
if(typeof data0 === "string"){
if(func1(data0) > 63){
const err2 = {instancePath:instancePath+"/schedule",schemaPath:"#/$defs/name/maxLength",keyword:"maxLength",params:{limit: 63},message:"must NOT have more than 63 characters",schema:63,parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(!pattern4.test(data0)){
const err3 = {instancePath:instancePath+"/schedule",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"},message:"must match pattern \""+"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"+"\"",schema:"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/schedule",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.status !== undefined){
let data1 = data.status;
if(typeof data1 !== "string"){
const err5 = {instancePath:instancePath+"/status",schemaPath:"#/properties/status/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema82.properties.status.type,parentSchema:schema82.properties.status,data:data1};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(!(data1 === "SUCCESS")){
const err6 = {instancePath:instancePath+"/status",schemaPath:"#/properties/status/enum",keyword:"enum",params:{allowedValues: schema82.properties.status.enum},message:"must be equal to one of the allowed values",schema:schema82.properties.status.enum,parentSchema:schema82.properties.status,data:data1};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
}
else {
const err7 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema82.type,parentSchema:schema82,data};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
validate64.errors = vErrors;
return errors === 0;
}
validate64.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const pattern31 = new RegExp("^(100|[0-9]{1,2}(\\.[0-9]{1,2})?)%$", "u");
const pattern33 = new RegExp("^[A-Za-z][A-Za-z0-9_]{0,62}$", "u");

function validate24(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate24.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
const _errs1 = errors;
let valid0 = true;
const _errs2 = errors;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.after !== undefined){
const err0 = {};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
var _valid0 = _errs2 === errors;
errors = _errs1;
if(vErrors !== null){
if(_errs1){
vErrors.length = _errs1;
}
else {
vErrors = null;
}
}
if(_valid0){
const _errs3 = errors;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.cron === undefined){
const err1 = {instancePath,schemaPath:"#/then/required",keyword:"required",params:{missingProperty: "cron"},message:"must have required property '"+"cron"+"'",schema:schema39.then.required,parentSchema:schema39.then,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
var _valid0 = _errs3 === errors;
valid0 = _valid0;
if(valid0){
var props0 = {};
props0.cron = true;
props0.after = true;
}
}
if(!valid0){
const err2 = {instancePath,schemaPath:"#/if",keyword:"if",params:{failingKeyword: "then"},message:"must match \"then\" schema",schema:schema39.if,parentSchema:schema39,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.timezone === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "timezone"},message:"must have required property '"+"timezone"+"'",schema:schema39.required,parentSchema:schema39,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.job === undefined){
const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "job"},message:"must have required property '"+"job"+"'",schema:schema39.required,parentSchema:schema39,data};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
for(const key0 in data){
if(!(func4.call(schema39.properties, key0))){
const err5 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema39,data};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.cron !== undefined){
let data1 = data.cron;
if(typeof data1 === "string"){
if(func1(data1) < 1){
const err6 = {instancePath:instancePath+"/cron",schemaPath:"#/properties/cron/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema39.properties.cron,data:data1};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
else {
const err7 = {instancePath:instancePath+"/cron",schemaPath:"#/properties/cron/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema39.properties.cron.type,parentSchema:schema39.properties.cron,data:data1};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.timezone !== undefined){
let data2 = data.timezone;
if(typeof data2 === "string"){
if(func1(data2) < 1){
const err8 = {instancePath:instancePath+"/timezone",schemaPath:"#/properties/timezone/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema39.properties.timezone,data:data2};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
else {
const err9 = {instancePath:instancePath+"/timezone",schemaPath:"#/properties/timezone/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema39.properties.timezone.type,parentSchema:schema39.properties.timezone,data:data2};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.enabled !== undefined){
let data3 = data.enabled;
if(typeof data3 !== "boolean"){
const err10 = {instancePath:instancePath+"/enabled",schemaPath:"#/properties/enabled/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema39.properties.enabled.type,parentSchema:schema39.properties.enabled,data:data3};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.dayMatch !== undefined){
let data4 = data.dayMatch;
if(typeof data4 !== "string"){
const err11 = {instancePath:instancePath+"/dayMatch",schemaPath:"#/properties/dayMatch/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema39.properties.dayMatch.type,parentSchema:schema39.properties.dayMatch,data:data4};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
if(!((data4 === "any") || (data4 === "all"))){
const err12 = {instancePath:instancePath+"/dayMatch",schemaPath:"#/properties/dayMatch/enum",keyword:"enum",params:{allowedValues: schema39.properties.dayMatch.enum},message:"must be equal to one of the allowed values",schema:schema39.properties.dayMatch.enum,parentSchema:schema39.properties.dayMatch,data:data4};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.job !== undefined){
if(!(validate25(data.job, {instancePath:instancePath+"/job",parentData:data,parentDataProperty:"job",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate25.errors : vErrors.concat(validate25.errors);
errors = vErrors.length;
}
}
if(data.timeout !== undefined){
let data6 = data.timeout;
if(typeof data6 === "string"){
if(!pattern10.test(data6)){
const err13 = {instancePath:instancePath+"/timeout",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^[0-9]+(ms|s|m|h|d)$"},message:"must match pattern \""+"^[0-9]+(ms|s|m|h|d)$"+"\"",schema:"^[0-9]+(ms|s|m|h|d)$",parentSchema:schema50,data:data6};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
else {
const err14 = {instancePath:instancePath+"/timeout",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.type,parentSchema:schema50,data:data6};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data.overlap !== undefined){
let data7 = data.overlap;
if(typeof data7 !== "string"){
const err15 = {instancePath:instancePath+"/overlap",schemaPath:"#/properties/overlap/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema39.properties.overlap.type,parentSchema:schema39.properties.overlap,data:data7};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
if(!(((data7 === "ALLOW") || (data7 === "SKIP_NEW")) || (data7 === "QUEUE_NEW"))){
const err16 = {instancePath:instancePath+"/overlap",schemaPath:"#/properties/overlap/enum",keyword:"enum",params:{allowedValues: schema39.properties.overlap.enum},message:"must be equal to one of the allowed values",schema:schema39.properties.overlap.enum,parentSchema:schema39.properties.overlap,data:data7};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data.misfire !== undefined){
let data8 = data.misfire;
if(typeof data8 !== "string"){
const err17 = {instancePath:instancePath+"/misfire",schemaPath:"#/properties/misfire/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema39.properties.misfire.type,parentSchema:schema39.properties.misfire,data:data8};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
if(!((((data8 === "SKIP") || (data8 === "RUN_ONCE")) || (data8 === "CATCH_UP_ALL")) || (data8 === "MANUAL"))){
const err18 = {instancePath:instancePath+"/misfire",schemaPath:"#/properties/misfire/enum",keyword:"enum",params:{allowedValues: schema39.properties.misfire.enum},message:"must be equal to one of the allowed values",schema:schema39.properties.misfire.enum,parentSchema:schema39.properties.misfire,data:data8};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data.maxCatchUp !== undefined){
let data9 = data.maxCatchUp;
if(!(((typeof data9 == "number") && (!(data9 % 1) && !isNaN(data9))) && (isFinite(data9)))){
const err19 = {instancePath:instancePath+"/maxCatchUp",schemaPath:"#/properties/maxCatchUp/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema39.properties.maxCatchUp.type,parentSchema:schema39.properties.maxCatchUp,data:data9};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
if((typeof data9 == "number") && (isFinite(data9))){
if(data9 < 1 || isNaN(data9)){
const err20 = {instancePath:instancePath+"/maxCatchUp",schemaPath:"#/properties/maxCatchUp/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema39.properties.maxCatchUp,data:data9};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
}
if(data.gracePeriod !== undefined){
let data10 = data.gracePeriod;
if(typeof data10 === "string"){
if(!pattern10.test(data10)){
const err21 = {instancePath:instancePath+"/gracePeriod",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^[0-9]+(ms|s|m|h|d)$"},message:"must match pattern \""+"^[0-9]+(ms|s|m|h|d)$"+"\"",schema:"^[0-9]+(ms|s|m|h|d)$",parentSchema:schema50,data:data10};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
else {
const err22 = {instancePath:instancePath+"/gracePeriod",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.type,parentSchema:schema50,data:data10};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data.freshness !== undefined){
let data11 = data.freshness;
if(typeof data11 === "string"){
if(!pattern10.test(data11)){
const err23 = {instancePath:instancePath+"/freshness",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^[0-9]+(ms|s|m|h|d)$"},message:"must match pattern \""+"^[0-9]+(ms|s|m|h|d)$"+"\"",schema:"^[0-9]+(ms|s|m|h|d)$",parentSchema:schema50,data:data11};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
else {
const err24 = {instancePath:instancePath+"/freshness",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.type,parentSchema:schema50,data:data11};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
if(data.retention !== undefined){
if(!(validate61(data.retention, {instancePath:instancePath+"/retention",parentData:data,parentDataProperty:"retention",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate61.errors : vErrors.concat(validate61.errors);
errors = vErrors.length;
}
}
if(data.retry !== undefined){
if(!(validate33(data.retry, {instancePath:instancePath+"/retry",parentData:data,parentDataProperty:"retry",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate33.errors : vErrors.concat(validate33.errors);
errors = vErrors.length;
}
}
if(data.onStall !== undefined){
let data14 = data.onStall;
if(typeof data14 !== "string"){
const err25 = {instancePath:instancePath+"/onStall",schemaPath:"#/properties/onStall/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema39.properties.onStall.type,parentSchema:schema39.properties.onStall,data:data14};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
if(!(((data14 === "retry") || (data14 === "fail")) || (data14 === "manual"))){
const err26 = {instancePath:instancePath+"/onStall",schemaPath:"#/properties/onStall/enum",keyword:"enum",params:{allowedValues: schema39.properties.onStall.enum},message:"must be equal to one of the allowed values",schema:schema39.properties.onStall.enum,parentSchema:schema39.properties.onStall,data:data14};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
if(data.priority !== undefined){
let data15 = data.priority;
if(typeof data15 !== "string"){
const err27 = {instancePath:instancePath+"/priority",schemaPath:"#/$defs/priority/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema77.type,parentSchema:schema77,data:data15};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
if(!((((data15 === "CRITICAL") || (data15 === "HIGH")) || (data15 === "NORMAL")) || (data15 === "LOW"))){
const err28 = {instancePath:instancePath+"/priority",schemaPath:"#/$defs/priority/enum",keyword:"enum",params:{allowedValues: schema77.enum},message:"must be equal to one of the allowed values",schema:schema77.enum,parentSchema:schema77,data:data15};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
if(data.criticality !== undefined){
let data16 = data.criticality;
if(typeof data16 !== "string"){
const err29 = {instancePath:instancePath+"/criticality",schemaPath:"#/properties/criticality/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema39.properties.criticality.type,parentSchema:schema39.properties.criticality,data:data16};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
if(!((((data16 === "CRITICAL") || (data16 === "HIGH")) || (data16 === "MEDIUM")) || (data16 === "LOW"))){
const err30 = {instancePath:instancePath+"/criticality",schemaPath:"#/properties/criticality/enum",keyword:"enum",params:{allowedValues: schema39.properties.criticality.enum},message:"must be equal to one of the allowed values",schema:schema39.properties.criticality.enum,parentSchema:schema39.properties.criticality,data:data16};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
if(data.queue !== undefined){
let data17 = data.queue;
if(typeof data17 === "string"){
if(func1(data17) > 63){
const err31 = {instancePath:instancePath+"/queue",schemaPath:"#/$defs/name/maxLength",keyword:"maxLength",params:{limit: 63},message:"must NOT have more than 63 characters",schema:63,parentSchema:schema35,data:data17};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
if(!pattern4.test(data17)){
const err32 = {instancePath:instancePath+"/queue",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"},message:"must match pattern \""+"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"+"\"",schema:"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",parentSchema:schema35,data:data17};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
}
else {
const err33 = {instancePath:instancePath+"/queue",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:data17};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
if(data.jitter !== undefined){
let data18 = data.jitter;
if(typeof data18 === "string"){
if(!pattern10.test(data18)){
const err34 = {instancePath:instancePath+"/jitter",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^[0-9]+(ms|s|m|h|d)$"},message:"must match pattern \""+"^[0-9]+(ms|s|m|h|d)$"+"\"",schema:"^[0-9]+(ms|s|m|h|d)$",parentSchema:schema50,data:data18};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
}
else {
const err35 = {instancePath:instancePath+"/jitter",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.type,parentSchema:schema50,data:data18};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
}
if(data.dst !== undefined){
let data19 = data.dst;
if(data19 && typeof data19 == "object" && !Array.isArray(data19)){
for(const key1 in data19){
if(!((key1 === "gap") || (key1 === "fold"))){
const err36 = {instancePath:instancePath+"/dst",schemaPath:"#/$defs/dst/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties",schema:false,parentSchema:schema80,data:data19};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
}
if(data19.gap !== undefined){
let data20 = data19.gap;
if(typeof data20 !== "string"){
const err37 = {instancePath:instancePath+"/dst/gap",schemaPath:"#/$defs/dst/properties/gap/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema80.properties.gap.type,parentSchema:schema80.properties.gap,data:data20};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
if(!((data20 === "shift") || (data20 === "skip"))){
const err38 = {instancePath:instancePath+"/dst/gap",schemaPath:"#/$defs/dst/properties/gap/enum",keyword:"enum",params:{allowedValues: schema80.properties.gap.enum},message:"must be equal to one of the allowed values",schema:schema80.properties.gap.enum,parentSchema:schema80.properties.gap,data:data20};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
}
if(data19.fold !== undefined){
let data21 = data19.fold;
if(typeof data21 !== "string"){
const err39 = {instancePath:instancePath+"/dst/fold",schemaPath:"#/$defs/dst/properties/fold/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema80.properties.fold.type,parentSchema:schema80.properties.fold,data:data21};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
}
if(!(((data21 === "first") || (data21 === "second")) || (data21 === "both"))){
const err40 = {instancePath:instancePath+"/dst/fold",schemaPath:"#/$defs/dst/properties/fold/enum",keyword:"enum",params:{allowedValues: schema80.properties.fold.enum},message:"must be equal to one of the allowed values",schema:schema80.properties.fold.enum,parentSchema:schema80.properties.fold,data:data21};
if(vErrors === null){
vErrors = [err40];
}
else {
vErrors.push(err40);
}
errors++;
}
}
}
else {
const err41 = {instancePath:instancePath+"/dst",schemaPath:"#/$defs/dst/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema80.type,parentSchema:schema80,data:data19};
if(vErrors === null){
vErrors = [err41];
}
else {
vErrors.push(err41);
}
errors++;
}
}
if(data.businessDate !== undefined){
let data22 = data.businessDate;
if(data22 && typeof data22 == "object" && !Array.isArray(data22)){
for(const key2 in data22){
if(!(key2 === "offsetDays")){
const err42 = {instancePath:instancePath+"/businessDate",schemaPath:"#/$defs/businessDate/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2},message:"must NOT have additional properties",schema:false,parentSchema:schema81,data:data22};
if(vErrors === null){
vErrors = [err42];
}
else {
vErrors.push(err42);
}
errors++;
}
}
if(data22.offsetDays !== undefined){
let data23 = data22.offsetDays;
if(!(((typeof data23 == "number") && (!(data23 % 1) && !isNaN(data23))) && (isFinite(data23)))){
const err43 = {instancePath:instancePath+"/businessDate/offsetDays",schemaPath:"#/$defs/businessDate/properties/offsetDays/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema81.properties.offsetDays.type,parentSchema:schema81.properties.offsetDays,data:data23};
if(vErrors === null){
vErrors = [err43];
}
else {
vErrors.push(err43);
}
errors++;
}
}
}
else {
const err44 = {instancePath:instancePath+"/businessDate",schemaPath:"#/$defs/businessDate/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema81.type,parentSchema:schema81,data:data22};
if(vErrors === null){
vErrors = [err44];
}
else {
vErrors.push(err44);
}
errors++;
}
}
if(data.approval !== undefined){
let data24 = data.approval;
if(typeof data24 !== "string"){
const err45 = {instancePath:instancePath+"/approval",schemaPath:"#/properties/approval/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema39.properties.approval.type,parentSchema:schema39.properties.approval,data:data24};
if(vErrors === null){
vErrors = [err45];
}
else {
vErrors.push(err45);
}
errors++;
}
if(!((data24 === "none") || (data24 === "required"))){
const err46 = {instancePath:instancePath+"/approval",schemaPath:"#/properties/approval/enum",keyword:"enum",params:{allowedValues: schema39.properties.approval.enum},message:"must be equal to one of the allowed values",schema:schema39.properties.approval.enum,parentSchema:schema39.properties.approval,data:data24};
if(vErrors === null){
vErrors = [err46];
}
else {
vErrors.push(err46);
}
errors++;
}
}
if(data.payload !== undefined){
let data25 = data.payload;
if(!(data25 && typeof data25 == "object" && !Array.isArray(data25))){
const err47 = {instancePath:instancePath+"/payload",schemaPath:"#/properties/payload/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema39.properties.payload.type,parentSchema:schema39.properties.payload,data:data25};
if(vErrors === null){
vErrors = [err47];
}
else {
vErrors.push(err47);
}
errors++;
}
}
if(data.allowedFailures !== undefined){
let data26 = data.allowedFailures;
const _errs63 = errors;
let valid13 = false;
let passing0 = null;
const _errs64 = errors;
if(!(((typeof data26 == "number") && (!(data26 % 1) && !isNaN(data26))) && (isFinite(data26)))){
const err48 = {instancePath:instancePath+"/allowedFailures",schemaPath:"#/properties/allowedFailures/oneOf/0/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema39.properties.allowedFailures.oneOf[0].type,parentSchema:schema39.properties.allowedFailures.oneOf[0],data:data26};
if(vErrors === null){
vErrors = [err48];
}
else {
vErrors.push(err48);
}
errors++;
}
if((typeof data26 == "number") && (isFinite(data26))){
if(data26 < 0 || isNaN(data26)){
const err49 = {instancePath:instancePath+"/allowedFailures",schemaPath:"#/properties/allowedFailures/oneOf/0/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema39.properties.allowedFailures.oneOf[0],data:data26};
if(vErrors === null){
vErrors = [err49];
}
else {
vErrors.push(err49);
}
errors++;
}
}
var _valid1 = _errs64 === errors;
if(_valid1){
valid13 = true;
passing0 = 0;
}
const _errs66 = errors;
if(typeof data26 === "string"){
if(!pattern31.test(data26)){
const err50 = {instancePath:instancePath+"/allowedFailures",schemaPath:"#/properties/allowedFailures/oneOf/1/pattern",keyword:"pattern",params:{pattern: "^(100|[0-9]{1,2}(\\.[0-9]{1,2})?)%$"},message:"must match pattern \""+"^(100|[0-9]{1,2}(\\.[0-9]{1,2})?)%$"+"\"",schema:"^(100|[0-9]{1,2}(\\.[0-9]{1,2})?)%$",parentSchema:schema39.properties.allowedFailures.oneOf[1],data:data26};
if(vErrors === null){
vErrors = [err50];
}
else {
vErrors.push(err50);
}
errors++;
}
}
else {
const err51 = {instancePath:instancePath+"/allowedFailures",schemaPath:"#/properties/allowedFailures/oneOf/1/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema39.properties.allowedFailures.oneOf[1].type,parentSchema:schema39.properties.allowedFailures.oneOf[1],data:data26};
if(vErrors === null){
vErrors = [err51];
}
else {
vErrors.push(err51);
}
errors++;
}
var _valid1 = _errs66 === errors;
if(_valid1 && valid13){
valid13 = false;
passing0 = [passing0, 1];
}
else {
if(_valid1){
valid13 = true;
passing0 = 1;
}
}
if(!valid13){
const err52 = {instancePath:instancePath+"/allowedFailures",schemaPath:"#/properties/allowedFailures/oneOf",keyword:"oneOf",params:{passingSchemas: passing0},message:"must match exactly one schema in oneOf",schema:schema39.properties.allowedFailures.oneOf,parentSchema:schema39.properties.allowedFailures,data:data26};
if(vErrors === null){
vErrors = [err52];
}
else {
vErrors.push(err52);
}
errors++;
}
else {
errors = _errs63;
if(vErrors !== null){
if(_errs63){
vErrors.length = _errs63;
}
else {
vErrors = null;
}
}
}
}
if(data.safety !== undefined){
let data27 = data.safety;
if(data27 && typeof data27 == "object" && !Array.isArray(data27)){
if(data27.maxAffected === undefined){
const err53 = {instancePath:instancePath+"/safety",schemaPath:"#/properties/safety/required",keyword:"required",params:{missingProperty: "maxAffected"},message:"must have required property '"+"maxAffected"+"'",schema:schema39.properties.safety.required,parentSchema:schema39.properties.safety,data:data27};
if(vErrors === null){
vErrors = [err53];
}
else {
vErrors.push(err53);
}
errors++;
}
for(const key3 in data27){
if(!(key3 === "maxAffected")){
const err54 = {instancePath:instancePath+"/safety",schemaPath:"#/properties/safety/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key3},message:"must NOT have additional properties",schema:false,parentSchema:schema39.properties.safety,data:data27};
if(vErrors === null){
vErrors = [err54];
}
else {
vErrors.push(err54);
}
errors++;
}
}
if(data27.maxAffected !== undefined){
let data28 = data27.maxAffected;
if(!(((typeof data28 == "number") && (!(data28 % 1) && !isNaN(data28))) && (isFinite(data28)))){
const err55 = {instancePath:instancePath+"/safety/maxAffected",schemaPath:"#/properties/safety/properties/maxAffected/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema39.properties.safety.properties.maxAffected.type,parentSchema:schema39.properties.safety.properties.maxAffected,data:data28};
if(vErrors === null){
vErrors = [err55];
}
else {
vErrors.push(err55);
}
errors++;
}
if((typeof data28 == "number") && (isFinite(data28))){
if(data28 < 0 || isNaN(data28)){
const err56 = {instancePath:instancePath+"/safety/maxAffected",schemaPath:"#/properties/safety/properties/maxAffected/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema39.properties.safety.properties.maxAffected,data:data28};
if(vErrors === null){
vErrors = [err56];
}
else {
vErrors.push(err56);
}
errors++;
}
}
}
}
else {
const err57 = {instancePath:instancePath+"/safety",schemaPath:"#/properties/safety/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema39.properties.safety.type,parentSchema:schema39.properties.safety,data:data27};
if(vErrors === null){
vErrors = [err57];
}
else {
vErrors.push(err57);
}
errors++;
}
}
if(data.after !== undefined){
let data29 = data.after;
if(Array.isArray(data29)){
if(data29.length > 10){
const err58 = {instancePath:instancePath+"/after",schemaPath:"#/properties/after/maxItems",keyword:"maxItems",params:{limit: 10},message:"must NOT have more than 10 items",schema:10,parentSchema:schema39.properties.after,data:data29};
if(vErrors === null){
vErrors = [err58];
}
else {
vErrors.push(err58);
}
errors++;
}
if(data29.length < 1){
const err59 = {instancePath:instancePath+"/after",schemaPath:"#/properties/after/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items",schema:1,parentSchema:schema39.properties.after,data:data29};
if(vErrors === null){
vErrors = [err59];
}
else {
vErrors.push(err59);
}
errors++;
}
const len0 = data29.length;
for(let i0=0; i0<len0; i0++){
if(!(validate64(data29[i0], {instancePath:instancePath+"/after/" + i0,parentData:data29,parentDataProperty:i0,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate64.errors : vErrors.concat(validate64.errors);
errors = vErrors.length;
}
}
}
else {
const err60 = {instancePath:instancePath+"/after",schemaPath:"#/properties/after/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema39.properties.after.type,parentSchema:schema39.properties.after,data:data29};
if(vErrors === null){
vErrors = [err60];
}
else {
vErrors.push(err60);
}
errors++;
}
}
if(data.inputs !== undefined){
let data31 = data.inputs;
if(data31 && typeof data31 == "object" && !Array.isArray(data31)){
if(Object.keys(data31).length > 32){
const err61 = {instancePath:instancePath+"/inputs",schemaPath:"#/properties/inputs/maxProperties",keyword:"maxProperties",params:{limit: 32},message:"must NOT have more than 32 properties",schema:32,parentSchema:schema39.properties.inputs,data:data31};
if(vErrors === null){
vErrors = [err61];
}
else {
vErrors.push(err61);
}
errors++;
}
for(const key4 in data31){
const _errs78 = errors;
if(typeof key4 === "string"){
if(!pattern33.test(key4)){
const err62 = {instancePath:instancePath+"/inputs",schemaPath:"#/properties/inputs/propertyNames/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z][A-Za-z0-9_]{0,62}$"},message:"must match pattern \""+"^[A-Za-z][A-Za-z0-9_]{0,62}$"+"\"",schema:"^[A-Za-z][A-Za-z0-9_]{0,62}$",parentSchema:schema39.properties.inputs.propertyNames,data:key4,propertyName:key4};
if(vErrors === null){
vErrors = [err62];
}
else {
vErrors.push(err62);
}
errors++;
}
}
var valid17 = _errs78 === errors;
if(!valid17){
const err63 = {instancePath:instancePath+"/inputs",schemaPath:"#/properties/inputs/propertyNames",keyword:"propertyNames",params:{propertyName: key4},message:"property name must be valid",schema:schema39.properties.inputs.propertyNames,parentSchema:schema39.properties.inputs,data:data31};
if(vErrors === null){
vErrors = [err63];
}
else {
vErrors.push(err63);
}
errors++;
}
}
for(const key5 in data31){
let data32 = data31[key5];
if(typeof data32 === "string"){
if(func1(data32) > 256){
const err64 = {instancePath:instancePath+"/inputs/" + key5.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/inputs/additionalProperties/maxLength",keyword:"maxLength",params:{limit: 256},message:"must NOT have more than 256 characters",schema:256,parentSchema:schema39.properties.inputs.additionalProperties,data:data32};
if(vErrors === null){
vErrors = [err64];
}
else {
vErrors.push(err64);
}
errors++;
}
}
else {
const err65 = {instancePath:instancePath+"/inputs/" + key5.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/inputs/additionalProperties/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema39.properties.inputs.additionalProperties.type,parentSchema:schema39.properties.inputs.additionalProperties,data:data32};
if(vErrors === null){
vErrors = [err65];
}
else {
vErrors.push(err65);
}
errors++;
}
}
}
else {
const err66 = {instancePath:instancePath+"/inputs",schemaPath:"#/properties/inputs/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema39.properties.inputs.type,parentSchema:schema39.properties.inputs,data:data31};
if(vErrors === null){
vErrors = [err66];
}
else {
vErrors.push(err66);
}
errors++;
}
}
}
else {
const err67 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema39.type,parentSchema:schema39,data};
if(vErrors === null){
vErrors = [err67];
}
else {
vErrors.push(err67);
}
errors++;
}
validate24.errors = vErrors;
return errors === 0;
}
validate24.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate21(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate21.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.apiVersion === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "apiVersion"},message:"must have required property '"+"apiVersion"+"'",schema:schema32.required,parentSchema:schema32,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.kind === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "kind"},message:"must have required property '"+"kind"+"'",schema:schema32.required,parentSchema:schema32,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.metadata === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "metadata"},message:"must have required property '"+"metadata"+"'",schema:schema32.required,parentSchema:schema32,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.spec === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "spec"},message:"must have required property '"+"spec"+"'",schema:schema32.required,parentSchema:schema32,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
for(const key0 in data){
if(!((((key0 === "apiVersion") || (key0 === "kind")) || (key0 === "metadata")) || (key0 === "spec"))){
const err4 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema32,data};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.apiVersion !== undefined){
let data0 = data.apiVersion;
if(typeof data0 !== "string"){
const err5 = {instancePath:instancePath+"/apiVersion",schemaPath:"#/$defs/apiVersion/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data0};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if("cronform/v1" !== data0){
const err6 = {instancePath:instancePath+"/apiVersion",schemaPath:"#/$defs/apiVersion/const",keyword:"const",params:{allowedValue: "cronform/v1"},message:"must be equal to constant",schema:"cronform/v1",parentSchema:schema33,data:data0};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.kind !== undefined){
let data1 = data.kind;
if(typeof data1 !== "string"){
const err7 = {instancePath:instancePath+"/kind",schemaPath:"#/properties/kind/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.kind.type,parentSchema:schema32.properties.kind,data:data1};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
if("Schedule" !== data1){
const err8 = {instancePath:instancePath+"/kind",schemaPath:"#/properties/kind/const",keyword:"const",params:{allowedValue: "Schedule"},message:"must be equal to constant",schema:"Schedule",parentSchema:schema32.properties.kind,data:data1};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.metadata !== undefined){
if(!(validate22(data.metadata, {instancePath:instancePath+"/metadata",parentData:data,parentDataProperty:"metadata",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
}
if(data.spec !== undefined){
if(!(validate24(data.spec, {instancePath:instancePath+"/spec",parentData:data,parentDataProperty:"spec",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate24.errors : vErrors.concat(validate24.errors);
errors = vErrors.length;
}
}
}
else {
const err9 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.type,parentSchema:schema32,data};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
validate21.errors = vErrors;
return errors === 0;
}
validate21.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema84 = {"title":"PolicyManifest","description":"Repository-wide limits and defaults; at most one per repository.","type":"object","additionalProperties":false,"required":["apiVersion","kind","metadata","spec"],"properties":{"apiVersion":{"$ref":"#/$defs/apiVersion"},"kind":{"description":"Document kind.","type":"string","const":"Policy"},"metadata":{"$ref":"#/$defs/policyMetadata"},"spec":{"$ref":"#/$defs/policySpec"}}};
const schema86 = {"title":"PolicyMetadata","description":"Identity of the policy.","type":"object","additionalProperties":false,"required":["name"],"properties":{"name":{"$ref":"#/$defs/name","description":"Policy name, e.g. default."},"description":{"description":"What the policy is for, for humans.","type":"string"},"owner":{"description":"Team or person responsible for the policy.","type":"string"},"labels":{"$ref":"#/$defs/labels"}}};

function validate68(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate68.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'",schema:schema86.required,parentSchema:schema86,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
for(const key0 in data){
if(!((((key0 === "name") || (key0 === "description")) || (key0 === "owner")) || (key0 === "labels"))){
const err1 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema86,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.name !== undefined){
let data0 = data.name;
if(typeof data0 === "string"){
if(func1(data0) > 63){
const err2 = {instancePath:instancePath+"/name",schemaPath:"#/$defs/name/maxLength",keyword:"maxLength",params:{limit: 63},message:"must NOT have more than 63 characters",schema:63,parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(!pattern4.test(data0)){
const err3 = {instancePath:instancePath+"/name",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"},message:"must match pattern \""+"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"+"\"",schema:"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/name",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.description !== undefined){
let data1 = data.description;
if(typeof data1 !== "string"){
const err5 = {instancePath:instancePath+"/description",schemaPath:"#/properties/description/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema86.properties.description.type,parentSchema:schema86.properties.description,data:data1};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.owner !== undefined){
let data2 = data.owner;
if(typeof data2 !== "string"){
const err6 = {instancePath:instancePath+"/owner",schemaPath:"#/properties/owner/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema86.properties.owner.type,parentSchema:schema86.properties.owner,data:data2};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.labels !== undefined){
let data3 = data.labels;
if(data3 && typeof data3 == "object" && !Array.isArray(data3)){
for(const key1 in data3){
let data4 = data3[key1];
if(typeof data4 !== "string"){
const err7 = {instancePath:instancePath+"/labels/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/labels/additionalProperties/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema36.additionalProperties.type,parentSchema:schema36.additionalProperties,data:data4};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
}
else {
const err8 = {instancePath:instancePath+"/labels",schemaPath:"#/$defs/labels/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema36.type,parentSchema:schema36,data:data3};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
}
else {
const err9 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema86.type,parentSchema:schema86,data};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
validate68.errors = vErrors;
return errors === 0;
}
validate68.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema89 = {"title":"PolicySpec","description":"Repository-wide limits and defaults.","type":"object","additionalProperties":false,"properties":{"minInterval":{"$ref":"#/$defs/duration","description":"Smallest allowed interval between two slots of a schedule.","default":"1m"},"maxRunsPerDay":{"description":"Most runs per local day allowed for one schedule.","type":"integer","minimum":1,"default":1440},"risk":{"title":"RiskThresholds","description":"Thresholds of plan risk findings.","type":"object","additionalProperties":false,"properties":{"runsPerDayIncreaseHigh":{"description":"Ratio of runs per day after/before a change that makes it HIGH risk.","type":"number","exclusiveMinimum":1,"default":10},"acceptanceMaxDays":{"description":"How many days ahead a risk acceptance's until may be (metadata.riskAccepted); a later date is a validation error (CF034).","type":"integer","minimum":1,"default":90}}},"misfireThreshold":{"$ref":"#/$defs/duration","description":"A slot processed later than this counts as missed.","default":"1m"},"queues":{"description":"Queues by name with their limits.","type":"object","propertyNames":{"$ref":"#/$defs/name"},"additionalProperties":{"$ref":"#/$defs/queueLimits"}},"backfill":{"title":"BackfillPolicy","description":"Limits of backfill runs.","type":"object","additionalProperties":false,"properties":{"concurrency":{"description":"Backfill runs executing at once.","type":"integer","minimum":1,"default":2},"priority":{"$ref":"#/$defs/priority","default":"LOW"}}},"retention":{"$ref":"#/$defs/retention","description":"Run retention of every schedule; a schedule's spec.retention overrides it field by field. Unset: runs are kept forever."},"alerts":{"title":"AlertsPolicy","description":"Where alerts go; which rules fire comes from each schedule's criticality (README, Alerts).","type":"object","additionalProperties":false,"required":["targets"],"properties":{"targets":{"description":"Receivers of every alert, names unique.","type":"array","items":{"$ref":"#/$defs/alertTarget"}}}}}};
const schema93 = {"title":"QueueLimits","description":"Limits of one queue.","type":"object","additionalProperties":false,"required":["concurrency"],"properties":{"concurrency":{"description":"Runs of this queue executing at once, across all runners.","type":"integer","minimum":1}}};
const schema95 = {"title":"AlertTarget","description":"A receiver of alerts: cronform's JSON webhook or a Slack incoming webhook (README, Alerts).","type":"object","additionalProperties":false,"required":["name","type","url"],"properties":{"name":{"$ref":"#/$defs/name","description":"Target name, unique in the Policy; alerts record deliveries by it."},"type":{"description":"Payload format: webhook (cronform's JSON) or slack (incoming-webhook format).","type":"string","enum":["webhook","slack"]},"url":{"description":"An http(s) URL, or { fromEnv: NAME } to read it from the runner's environment (a Slack webhook URL is a credential: prefer fromEnv).","anyOf":[{"type":"string","format":"uri","pattern":"^https?://"},{"$ref":"#/$defs/secretRef"}]}}};
const pattern39 = new RegExp("^https?://", "u");

function validate72(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate72.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'",schema:schema95.required,parentSchema:schema95,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.type === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "type"},message:"must have required property '"+"type"+"'",schema:schema95.required,parentSchema:schema95,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.url === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "url"},message:"must have required property '"+"url"+"'",schema:schema95.required,parentSchema:schema95,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!(((key0 === "name") || (key0 === "type")) || (key0 === "url"))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema95,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.name !== undefined){
let data0 = data.name;
if(typeof data0 === "string"){
if(func1(data0) > 63){
const err4 = {instancePath:instancePath+"/name",schemaPath:"#/$defs/name/maxLength",keyword:"maxLength",params:{limit: 63},message:"must NOT have more than 63 characters",schema:63,parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(!pattern4.test(data0)){
const err5 = {instancePath:instancePath+"/name",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"},message:"must match pattern \""+"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"+"\"",schema:"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
else {
const err6 = {instancePath:instancePath+"/name",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:data0};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.type !== undefined){
let data1 = data.type;
if(typeof data1 !== "string"){
const err7 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema95.properties.type.type,parentSchema:schema95.properties.type,data:data1};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
if(!((data1 === "webhook") || (data1 === "slack"))){
const err8 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/enum",keyword:"enum",params:{allowedValues: schema95.properties.type.enum},message:"must be equal to one of the allowed values",schema:schema95.properties.type.enum,parentSchema:schema95.properties.type,data:data1};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.url !== undefined){
let data2 = data.url;
const _errs8 = errors;
let valid2 = false;
const _errs9 = errors;
if(typeof data2 === "string"){
if(!pattern39.test(data2)){
const err9 = {instancePath:instancePath+"/url",schemaPath:"#/properties/url/anyOf/0/pattern",keyword:"pattern",params:{pattern: "^https?://"},message:"must match pattern \""+"^https?://"+"\"",schema:"^https?://",parentSchema:schema95.properties.url.anyOf[0],data:data2};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if(!(formats2(data2))){
const err10 = {instancePath:instancePath+"/url",schemaPath:"#/properties/url/anyOf/0/format",keyword:"format",params:{format: "uri"},message:"must match format \""+"uri"+"\"",schema:"uri",parentSchema:schema95.properties.url.anyOf[0],data:data2};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
else {
const err11 = {instancePath:instancePath+"/url",schemaPath:"#/properties/url/anyOf/0/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema95.properties.url.anyOf[0].type,parentSchema:schema95.properties.url.anyOf[0],data:data2};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
var _valid0 = _errs9 === errors;
valid2 = valid2 || _valid0;
const _errs11 = errors;
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
if(data2.fromEnv === undefined){
const err12 = {instancePath:instancePath+"/url",schemaPath:"#/$defs/secretRef/required",keyword:"required",params:{missingProperty: "fromEnv"},message:"must have required property '"+"fromEnv"+"'",schema:schema49.required,parentSchema:schema49,data:data2};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
for(const key1 in data2){
if(!(key1 === "fromEnv")){
const err13 = {instancePath:instancePath+"/url",schemaPath:"#/$defs/secretRef/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties",schema:false,parentSchema:schema49,data:data2};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data2.fromEnv !== undefined){
let data3 = data2.fromEnv;
if(typeof data3 === "string"){
if(!pattern9.test(data3)){
const err14 = {instancePath:instancePath+"/url/fromEnv",schemaPath:"#/$defs/secretRef/properties/fromEnv/pattern",keyword:"pattern",params:{pattern: "^[A-Z_][A-Z0-9_]*$"},message:"must match pattern \""+"^[A-Z_][A-Z0-9_]*$"+"\"",schema:"^[A-Z_][A-Z0-9_]*$",parentSchema:schema49.properties.fromEnv,data:data3};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
else {
const err15 = {instancePath:instancePath+"/url/fromEnv",schemaPath:"#/$defs/secretRef/properties/fromEnv/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema49.properties.fromEnv.type,parentSchema:schema49.properties.fromEnv,data:data3};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
}
else {
const err16 = {instancePath:instancePath+"/url",schemaPath:"#/$defs/secretRef/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema49.type,parentSchema:schema49,data:data2};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
var _valid0 = _errs11 === errors;
valid2 = valid2 || _valid0;
if(!valid2){
const err17 = {instancePath:instancePath+"/url",schemaPath:"#/properties/url/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema95.properties.url.anyOf,parentSchema:schema95.properties.url,data:data2};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
else {
errors = _errs8;
if(vErrors !== null){
if(_errs8){
vErrors.length = _errs8;
}
else {
vErrors = null;
}
}
}
}
}
else {
const err18 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema95.type,parentSchema:schema95,data};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
validate72.errors = vErrors;
return errors === 0;
}
validate72.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate70(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate70.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!((((((((key0 === "minInterval") || (key0 === "maxRunsPerDay")) || (key0 === "risk")) || (key0 === "misfireThreshold")) || (key0 === "queues")) || (key0 === "backfill")) || (key0 === "retention")) || (key0 === "alerts"))){
const err0 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema89,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.minInterval !== undefined){
let data0 = data.minInterval;
if(typeof data0 === "string"){
if(!pattern10.test(data0)){
const err1 = {instancePath:instancePath+"/minInterval",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^[0-9]+(ms|s|m|h|d)$"},message:"must match pattern \""+"^[0-9]+(ms|s|m|h|d)$"+"\"",schema:"^[0-9]+(ms|s|m|h|d)$",parentSchema:schema50,data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
else {
const err2 = {instancePath:instancePath+"/minInterval",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.type,parentSchema:schema50,data:data0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.maxRunsPerDay !== undefined){
let data1 = data.maxRunsPerDay;
if(!(((typeof data1 == "number") && (!(data1 % 1) && !isNaN(data1))) && (isFinite(data1)))){
const err3 = {instancePath:instancePath+"/maxRunsPerDay",schemaPath:"#/properties/maxRunsPerDay/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema89.properties.maxRunsPerDay.type,parentSchema:schema89.properties.maxRunsPerDay,data:data1};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if((typeof data1 == "number") && (isFinite(data1))){
if(data1 < 1 || isNaN(data1)){
const err4 = {instancePath:instancePath+"/maxRunsPerDay",schemaPath:"#/properties/maxRunsPerDay/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema89.properties.maxRunsPerDay,data:data1};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
}
if(data.risk !== undefined){
let data2 = data.risk;
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
for(const key1 in data2){
if(!((key1 === "runsPerDayIncreaseHigh") || (key1 === "acceptanceMaxDays"))){
const err5 = {instancePath:instancePath+"/risk",schemaPath:"#/properties/risk/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties",schema:false,parentSchema:schema89.properties.risk,data:data2};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data2.runsPerDayIncreaseHigh !== undefined){
let data3 = data2.runsPerDayIncreaseHigh;
if((typeof data3 == "number") && (isFinite(data3))){
if(data3 <= 1 || isNaN(data3)){
const err6 = {instancePath:instancePath+"/risk/runsPerDayIncreaseHigh",schemaPath:"#/properties/risk/properties/runsPerDayIncreaseHigh/exclusiveMinimum",keyword:"exclusiveMinimum",params:{comparison: ">", limit: 1},message:"must be > 1",schema:1,parentSchema:schema89.properties.risk.properties.runsPerDayIncreaseHigh,data:data3};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
else {
const err7 = {instancePath:instancePath+"/risk/runsPerDayIncreaseHigh",schemaPath:"#/properties/risk/properties/runsPerDayIncreaseHigh/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema89.properties.risk.properties.runsPerDayIncreaseHigh.type,parentSchema:schema89.properties.risk.properties.runsPerDayIncreaseHigh,data:data3};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data2.acceptanceMaxDays !== undefined){
let data4 = data2.acceptanceMaxDays;
if(!(((typeof data4 == "number") && (!(data4 % 1) && !isNaN(data4))) && (isFinite(data4)))){
const err8 = {instancePath:instancePath+"/risk/acceptanceMaxDays",schemaPath:"#/properties/risk/properties/acceptanceMaxDays/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema89.properties.risk.properties.acceptanceMaxDays.type,parentSchema:schema89.properties.risk.properties.acceptanceMaxDays,data:data4};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if((typeof data4 == "number") && (isFinite(data4))){
if(data4 < 1 || isNaN(data4)){
const err9 = {instancePath:instancePath+"/risk/acceptanceMaxDays",schemaPath:"#/properties/risk/properties/acceptanceMaxDays/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema89.properties.risk.properties.acceptanceMaxDays,data:data4};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
}
}
else {
const err10 = {instancePath:instancePath+"/risk",schemaPath:"#/properties/risk/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema89.properties.risk.type,parentSchema:schema89.properties.risk,data:data2};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.misfireThreshold !== undefined){
let data5 = data.misfireThreshold;
if(typeof data5 === "string"){
if(!pattern10.test(data5)){
const err11 = {instancePath:instancePath+"/misfireThreshold",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^[0-9]+(ms|s|m|h|d)$"},message:"must match pattern \""+"^[0-9]+(ms|s|m|h|d)$"+"\"",schema:"^[0-9]+(ms|s|m|h|d)$",parentSchema:schema50,data:data5};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
else {
const err12 = {instancePath:instancePath+"/misfireThreshold",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.type,parentSchema:schema50,data:data5};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.queues !== undefined){
let data6 = data.queues;
if(data6 && typeof data6 == "object" && !Array.isArray(data6)){
for(const key2 in data6){
const _errs19 = errors;
if(typeof key2 === "string"){
if(func1(key2) > 63){
const err13 = {instancePath:instancePath+"/queues",schemaPath:"#/$defs/name/maxLength",keyword:"maxLength",params:{limit: 63},message:"must NOT have more than 63 characters",schema:63,parentSchema:schema35,data:key2,propertyName:key2};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
if(!pattern4.test(key2)){
const err14 = {instancePath:instancePath+"/queues",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"},message:"must match pattern \""+"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"+"\"",schema:"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",parentSchema:schema35,data:key2,propertyName:key2};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
else {
const err15 = {instancePath:instancePath+"/queues",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:key2,propertyName:key2};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
var valid4 = _errs19 === errors;
if(!valid4){
const err16 = {instancePath:instancePath+"/queues",schemaPath:"#/properties/queues/propertyNames",keyword:"propertyNames",params:{propertyName: key2},message:"property name must be valid",schema:schema89.properties.queues.propertyNames,parentSchema:schema89.properties.queues,data:data6};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
for(const key3 in data6){
let data7 = data6[key3];
if(data7 && typeof data7 == "object" && !Array.isArray(data7)){
if(data7.concurrency === undefined){
const err17 = {instancePath:instancePath+"/queues/" + key3.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/queueLimits/required",keyword:"required",params:{missingProperty: "concurrency"},message:"must have required property '"+"concurrency"+"'",schema:schema93.required,parentSchema:schema93,data:data7};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
for(const key4 in data7){
if(!(key4 === "concurrency")){
const err18 = {instancePath:instancePath+"/queues/" + key3.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/queueLimits/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key4},message:"must NOT have additional properties",schema:false,parentSchema:schema93,data:data7};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data7.concurrency !== undefined){
let data8 = data7.concurrency;
if(!(((typeof data8 == "number") && (!(data8 % 1) && !isNaN(data8))) && (isFinite(data8)))){
const err19 = {instancePath:instancePath+"/queues/" + key3.replace(/~/g, "~0").replace(/\//g, "~1")+"/concurrency",schemaPath:"#/$defs/queueLimits/properties/concurrency/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema93.properties.concurrency.type,parentSchema:schema93.properties.concurrency,data:data8};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
if((typeof data8 == "number") && (isFinite(data8))){
if(data8 < 1 || isNaN(data8)){
const err20 = {instancePath:instancePath+"/queues/" + key3.replace(/~/g, "~0").replace(/\//g, "~1")+"/concurrency",schemaPath:"#/$defs/queueLimits/properties/concurrency/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema93.properties.concurrency,data:data8};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
}
}
else {
const err21 = {instancePath:instancePath+"/queues/" + key3.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/queueLimits/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema93.type,parentSchema:schema93,data:data7};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
}
else {
const err22 = {instancePath:instancePath+"/queues",schemaPath:"#/properties/queues/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema89.properties.queues.type,parentSchema:schema89.properties.queues,data:data6};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data.backfill !== undefined){
let data9 = data.backfill;
if(data9 && typeof data9 == "object" && !Array.isArray(data9)){
for(const key5 in data9){
if(!((key5 === "concurrency") || (key5 === "priority"))){
const err23 = {instancePath:instancePath+"/backfill",schemaPath:"#/properties/backfill/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key5},message:"must NOT have additional properties",schema:false,parentSchema:schema89.properties.backfill,data:data9};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data9.concurrency !== undefined){
let data10 = data9.concurrency;
if(!(((typeof data10 == "number") && (!(data10 % 1) && !isNaN(data10))) && (isFinite(data10)))){
const err24 = {instancePath:instancePath+"/backfill/concurrency",schemaPath:"#/properties/backfill/properties/concurrency/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema89.properties.backfill.properties.concurrency.type,parentSchema:schema89.properties.backfill.properties.concurrency,data:data10};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
if((typeof data10 == "number") && (isFinite(data10))){
if(data10 < 1 || isNaN(data10)){
const err25 = {instancePath:instancePath+"/backfill/concurrency",schemaPath:"#/properties/backfill/properties/concurrency/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema89.properties.backfill.properties.concurrency,data:data10};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
}
if(data9.priority !== undefined){
let data11 = data9.priority;
if(typeof data11 !== "string"){
const err26 = {instancePath:instancePath+"/backfill/priority",schemaPath:"#/$defs/priority/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema77.type,parentSchema:schema77,data:data11};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
if(!((((data11 === "CRITICAL") || (data11 === "HIGH")) || (data11 === "NORMAL")) || (data11 === "LOW"))){
const err27 = {instancePath:instancePath+"/backfill/priority",schemaPath:"#/$defs/priority/enum",keyword:"enum",params:{allowedValues: schema77.enum},message:"must be equal to one of the allowed values",schema:schema77.enum,parentSchema:schema77,data:data11};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
}
else {
const err28 = {instancePath:instancePath+"/backfill",schemaPath:"#/properties/backfill/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema89.properties.backfill.type,parentSchema:schema89.properties.backfill,data:data9};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
if(data.retention !== undefined){
if(!(validate61(data.retention, {instancePath:instancePath+"/retention",parentData:data,parentDataProperty:"retention",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate61.errors : vErrors.concat(validate61.errors);
errors = vErrors.length;
}
}
if(data.alerts !== undefined){
let data13 = data.alerts;
if(data13 && typeof data13 == "object" && !Array.isArray(data13)){
if(data13.targets === undefined){
const err29 = {instancePath:instancePath+"/alerts",schemaPath:"#/properties/alerts/required",keyword:"required",params:{missingProperty: "targets"},message:"must have required property '"+"targets"+"'",schema:schema89.properties.alerts.required,parentSchema:schema89.properties.alerts,data:data13};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
for(const key6 in data13){
if(!(key6 === "targets")){
const err30 = {instancePath:instancePath+"/alerts",schemaPath:"#/properties/alerts/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key6},message:"must NOT have additional properties",schema:false,parentSchema:schema89.properties.alerts,data:data13};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
if(data13.targets !== undefined){
let data14 = data13.targets;
if(Array.isArray(data14)){
const len0 = data14.length;
for(let i0=0; i0<len0; i0++){
if(!(validate72(data14[i0], {instancePath:instancePath+"/alerts/targets/" + i0,parentData:data14,parentDataProperty:i0,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate72.errors : vErrors.concat(validate72.errors);
errors = vErrors.length;
}
}
}
else {
const err31 = {instancePath:instancePath+"/alerts/targets",schemaPath:"#/properties/alerts/properties/targets/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema89.properties.alerts.properties.targets.type,parentSchema:schema89.properties.alerts.properties.targets,data:data14};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
}
}
else {
const err32 = {instancePath:instancePath+"/alerts",schemaPath:"#/properties/alerts/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema89.properties.alerts.type,parentSchema:schema89.properties.alerts,data:data13};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
}
}
else {
const err33 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema89.type,parentSchema:schema89,data};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
validate70.errors = vErrors;
return errors === 0;
}
validate70.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate67(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate67.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.apiVersion === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "apiVersion"},message:"must have required property '"+"apiVersion"+"'",schema:schema84.required,parentSchema:schema84,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.kind === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "kind"},message:"must have required property '"+"kind"+"'",schema:schema84.required,parentSchema:schema84,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.metadata === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "metadata"},message:"must have required property '"+"metadata"+"'",schema:schema84.required,parentSchema:schema84,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.spec === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "spec"},message:"must have required property '"+"spec"+"'",schema:schema84.required,parentSchema:schema84,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
for(const key0 in data){
if(!((((key0 === "apiVersion") || (key0 === "kind")) || (key0 === "metadata")) || (key0 === "spec"))){
const err4 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema84,data};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.apiVersion !== undefined){
let data0 = data.apiVersion;
if(typeof data0 !== "string"){
const err5 = {instancePath:instancePath+"/apiVersion",schemaPath:"#/$defs/apiVersion/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data0};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if("cronform/v1" !== data0){
const err6 = {instancePath:instancePath+"/apiVersion",schemaPath:"#/$defs/apiVersion/const",keyword:"const",params:{allowedValue: "cronform/v1"},message:"must be equal to constant",schema:"cronform/v1",parentSchema:schema33,data:data0};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.kind !== undefined){
let data1 = data.kind;
if(typeof data1 !== "string"){
const err7 = {instancePath:instancePath+"/kind",schemaPath:"#/properties/kind/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema84.properties.kind.type,parentSchema:schema84.properties.kind,data:data1};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
if("Policy" !== data1){
const err8 = {instancePath:instancePath+"/kind",schemaPath:"#/properties/kind/const",keyword:"const",params:{allowedValue: "Policy"},message:"must be equal to constant",schema:"Policy",parentSchema:schema84.properties.kind,data:data1};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.metadata !== undefined){
if(!(validate68(data.metadata, {instancePath:instancePath+"/metadata",parentData:data,parentDataProperty:"metadata",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate68.errors : vErrors.concat(validate68.errors);
errors = vErrors.length;
}
}
if(data.spec !== undefined){
if(!(validate70(data.spec, {instancePath:instancePath+"/spec",parentData:data,parentDataProperty:"spec",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate70.errors : vErrors.concat(validate70.errors);
errors = vErrors.length;
}
}
}
else {
const err9 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema84.type,parentSchema:schema84,data};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
validate67.errors = vErrors;
return errors === 0;
}
validate67.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://cronform.dev/schema/cronform.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
const tag0 = data.kind;
if(typeof tag0 == "string"){
if(tag0 === "Schedule"){
if(!(validate21(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
var props0 = true;
}
else if(tag0 === "Policy"){
if(!(validate67(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate67.errors : vErrors.concat(validate67.errors);
errors = vErrors.length;
}
if(props0 !== true){
props0 = true;
}
}
else {
const err0 = {instancePath,schemaPath:"#/discriminator",keyword:"discriminator",params:{error: "mapping", tag: "kind", tagValue: tag0},message:"value of tag \"kind\" must be in oneOf",schema:schema31.discriminator,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
else {
const err1 = {instancePath,schemaPath:"#/discriminator",keyword:"discriminator",params:{error: "tag", tag: "kind", tagValue: tag0},message:"tag \"kind\" must be string",schema:schema31.discriminator,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
else {
const err2 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
validate20.errors = vErrors;
evaluated0.props = props0;
return errors === 0;
}
validate20.evaluated = {"dynamicProps":true,"dynamicItems":false};
