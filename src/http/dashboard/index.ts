export { checkDashboardConfiguration, createDashboardHandler, readDashboardToken, DashboardConfigurationError, DASHBOARD_TOKEN_ENV, DEFAULT_DASHBOARD_ACTOR, MIN_TOKEN_LENGTH, type DashboardOptions } from './dashboard-handler.js';
export { AllowedHostsError, isAllowedHost, parseAllowedHosts } from './host-check.js';
