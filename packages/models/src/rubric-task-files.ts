import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RubricTaskError } from './errors.js';
import { parseRubricTask, type RubricTask } from './rubric-task.js';
import { requireArgument } from 'poisson-core';

/**
 * Loads every `*.toml` rubric task of a directory, in file-name order. All files are validated before
 * any is returned: the error lists every problem of every file.
 *
 * @param dir - the directory (e.g. `examples/skill_tasks`).
 * @returns the tasks, in file-name order.
 * @throws RubricTaskError listing the problems of all files, also when two files share an id or the
 *   directory holds no task.
 * @example
 * ```ts
 * const tasks = await loadRubricTasks('examples/skill_tasks'); // 5 tasks
 * ```
 * @see parseRubricTask
 */
export async function loadRubricTasks(dir: string): Promise<readonly RubricTask[]> {
  requireArgument('loadRubricTasks', 'dir', dir, 'string', 'the directory of rubric task files');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.toml')).sort();
  const problems: string[] = [];
  const tasks: RubricTask[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    try {
      const task = parseRubricTask(await readFile(join(dir, file), 'utf8'), file);
      const other = seen.get(task.id);
      if (other !== undefined) problems.push(`${file}: the id "${task.id}" is also used by ${other}; give each task its own id.`);
      seen.set(task.id, file);
      tasks.push(task);
    } catch (error) {
      if (error instanceof RubricTaskError) problems.push(...error.problems.map((p) => `${file}: ${p}`));
      else throw error;
    }
  }
  if (files.length === 0) problems.push(`no *.toml task file: add at least one.`);
  if (problems.length > 0) throw new RubricTaskError(dir, problems);
  return Object.freeze(tasks);
}
