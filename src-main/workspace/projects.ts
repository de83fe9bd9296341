import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { ProjectInfo } from '@shared/domain/project';
import { AppError, errnoCode } from '../platform/errors';
import { readJsonFile, writeJsonFileAtomic } from '../platform/json-file';
import { projectSlug } from '../platform/paths';

const MAX_RECENT = 20;

const AppState = z.object({
  recentProjects: z.array(z.object({ path: z.string(), lastOpenedAt: z.string() })).default([]),
  lastProject: z.string().nullable().default(null),
});
type AppState = z.infer<typeof AppState>;

/**
 * Resolves a user-supplied folder path to a canonical absolute directory, or throws a typed error.
 * `~` expands to the home folder; NUL bytes, relative paths and non-folders are refused.
 */
export function resolveProjectPath(input: string): string {
  if (input.includes('\0')) throw new AppError('INVALID_INPUT', 'A folder path cannot contain a NUL byte.');
  let p = input.trim();
  if (p === '~' || p.startsWith('~/')) p = path.join(homedir(), p.slice(1));
  if (!path.isAbsolute(p)) throw new AppError('INVALID_INPUT', `"${input}" is not an absolute path.`);
  let real: string;
  try {
    real = realpathSync(p);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') throw new AppError('NOT_FOUND', `There is no folder at ${p}.`);
    throw new AppError('IO_ERROR', `${p} cannot be opened: ${(error as Error).message}`);
  }
  if (!statSync(real).isDirectory()) throw new AppError('INVALID_INPUT', `${real} is a file, not a folder.`);
  return real;
}

export function projectInfo(projectPath: string, lastOpenedAt: string): ProjectInfo {
  return {
    id: projectSlug(projectPath),
    path: projectPath,
    name: path.basename(projectPath) || projectPath,
    lastOpenedAt,
  };
}

/** The recent-projects list and the last opened project, kept in `state.json`. */
export class ProjectRegistry {
  private state: AppState;
  private readonly byId = new Map<string, ProjectInfo>();

  constructor(private readonly stateFile: string) {
    const read = readJsonFile(stateFile, AppState);
    this.state = read.kind === 'ok' ? read.value : { recentProjects: [], lastProject: null };
    for (const r of this.state.recentProjects) {
      const info = projectInfo(r.path, r.lastOpenedAt);
      this.byId.set(info.id, info);
    }
  }

  recent(): ProjectInfo[] {
    return this.state.recentProjects.map((r) => projectInfo(r.path, r.lastOpenedAt));
  }

  get lastProject(): string | null {
    return this.state.lastProject;
  }

  /** Marks a project opened now; returns its info. */
  touch(projectPath: string): ProjectInfo {
    const now = new Date().toISOString();
    const others = this.state.recentProjects.filter((r) => r.path !== projectPath);
    this.state = {
      recentProjects: [{ path: projectPath, lastOpenedAt: now }, ...others].slice(0, MAX_RECENT),
      lastProject: projectPath,
    };
    try {
      this.save();
    } catch (error) {
      // The recent list is a convenience: a full disk must not keep a project, and the sessions
      // saved in it, from opening. The list stays right in memory and is saved with the next change.
      if (!(error instanceof AppError)) throw error;
    }
    const info = projectInfo(projectPath, now);
    this.byId.set(info.id, info);
    return info;
  }

  forget(projectPath: string): ProjectInfo[] {
    this.state = {
      recentProjects: this.state.recentProjects.filter((r) => r.path !== projectPath),
      lastProject: this.state.lastProject === projectPath ? null : this.state.lastProject,
    };
    this.save();
    return this.recent();
  }

  /** A project opened in this run or listed as recent. */
  get(projectId: string): ProjectInfo {
    const info = this.byId.get(projectId);
    if (!info) throw new AppError('NOT_FOUND', `No open project has the id ${projectId}.`);
    return info;
  }

  /** The folder of a project known in this run, or null. */
  pathOf(projectId: string): string | null {
    return this.byId.get(projectId)?.path ?? null;
  }

  private save(): void {
    writeJsonFileAtomic(this.stateFile, this.state);
  }
}
