// Why a change of a project was not stored on the device, for both of its stores (store.ts: create and edit;
// transition-store.ts: moves, completion, reports, payments), and the one read of the device's copy they share.
import { Project, type ProjectStatus } from '../../domain/project';
import type { FieldErrors } from '../../domain/validation';
import type { AppDatabase } from '../../lib/db/database';
import { checkRows } from '../../lib/db/rows';

export type ProjectRefusal =
  /** The project (or the proposal it is made from) is not on this device, or is of another company. */
  | 'missing'
  /** The user may not do this with it. */
  | 'notAllowed'
  /** Its current state does not allow this (it changed meanwhile): see `status`. */
  | 'wrongState'
  /** The proposal is not approved. */
  | 'notApproved'
  /** The proposal is already a project (on this device): see `projectId`. */
  | 'taken'
  /** The project is no longer editable (sent for calculation or further). */
  | 'notEditable'
  /** The input breaks the server's rules: see `fieldErrors`. */
  | 'invalid';

export class ProjectRefusedError extends Error {
  readonly reason: ProjectRefusal;
  readonly fieldErrors: FieldErrors;
  /** For `taken`: the project the proposal already became. */
  readonly projectId: string | null;
  /** For `wrongState`: the status the project is in on the device. */
  readonly status: ProjectStatus | null;

  constructor(reason: ProjectRefusal, fieldErrors: FieldErrors = {}, details: { projectId?: string; status?: ProjectStatus } = {}) {
    super(`The project change was refused on the device: ${reason}`);
    this.name = 'ProjectRefusedError';
    this.reason = reason;
    this.fieldErrors = fieldErrors;
    this.projectId = details.projectId ?? null;
    this.status = details.status ?? null;
  }
}

/** The device's copy of a project of `companyId`, checked; `missing` when there is none. */
export async function localProject(db: AppDatabase, ownerUserId: string, companyId: string, projectId: string): Promise<Project> {
  const stored = await db.projects.get([ownerUserId, projectId]);
  const project = stored ? checkRows(Project, [stored], 'projects').rows[0] : undefined;
  if (!project || project.companyId !== companyId) throw new ProjectRefusedError('missing');
  return project;
}
