/** The crontab importer's word splitting lives in shared/ since manifest hints use it too. */
export { splitShellWords, type ShellWords } from '../shared/shell-words.js';
