/** The tools that may take seconds to minutes (folds, a 1,000-run null, a grader lane): served as tasks when asked. */
export const TASK_TOOLS: ReadonlySet<string> = new Set(['rehearse', 'forge_trial', 'grade']);
