import { formatPath, type Problem } from './problem.js';

export interface ConfigIssue {
  file: string;
  /** 1-based; 0 when the issue concerns the whole file (e.g. it cannot be read). */
  line: number;
  column: number;
  /** Field path like `subagents[1].name`; empty for file-level issues. */
  path: string;
  message: string;
}

export function formatIssue(issue: ConfigIssue): string {
  const where = issue.line > 0 ? `${issue.file}:${issue.line}:${issue.column}` : `${issue.file}:`;
  return issue.path === '' ? `${where} ${issue.message}` : `${where} ${issue.path}: ${issue.message}`;
}

/** Grouped by file in the order files were first reported, then top to bottom. */
export function sortIssues(issues: readonly ConfigIssue[]): ConfigIssue[] {
  const fileOrder = new Map<string, number>();
  for (const issue of issues) if (!fileOrder.has(issue.file)) fileOrder.set(issue.file, fileOrder.size);
  const rank = (issue: ConfigIssue): number => fileOrder.get(issue.file) ?? 0;
  return [...issues].sort((a, b) => rank(a) - rank(b) || a.line - b.line || a.column - b.column);
}

export function issueFromProblem(file: string, position: { line: number; column: number }, problem: Problem): ConfigIssue {
  return { file, line: position.line, column: position.column, path: formatPath(problem.path), message: problem.message };
}

export class SyndicateConfigError extends Error {
  readonly issues: ConfigIssue[];

  constructor(issues: ConfigIssue[]) {
    super(issues.map(formatIssue).join('\n'));
    this.name = 'SyndicateConfigError';
    this.issues = issues;
  }
}
