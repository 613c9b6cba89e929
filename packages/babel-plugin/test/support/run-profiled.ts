import { spawnSync } from 'node:child_process';
import {
  loadProfiledFiles,
  pathReport,
  Problems,
  type PathReport,
  type ProfiledFile,
} from '@pathprof/report';
import type { ScratchProject } from './scratch-project';

/**
 * Runs `script` of `project` with node, its profile written to `profiles`, and reads the profile and the path
 * report as `pathprof-report` would, with the problems it found. The run must print nothing on stderr.
 */
export function runProfiled(
  project: ScratchProject,
  profiles: string,
  script = 'main.js',
): { stdout: string; files: ProfiledFile[]; report: PathReport; problems: string[] } {
  const run = spawnSync(process.execPath, [script], {
    cwd: project.root,
    env: { ...process.env, PATHPROF_DIR: profiles },
    encoding: 'utf8',
  });
  expect(run.stderr).toBe('');
  const problems = new Problems();
  const files = loadProfiledFiles([profiles], [project.root], problems);
  const report = pathReport(files, problems.messages);
  return { stdout: run.stdout, files, report, problems: problems.messages };
}
