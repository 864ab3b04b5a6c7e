import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { Button } from '../../../ui/button';
import { useDialog } from '../../../ui/dialog';
import { failureMessage, useDepartmentWrites } from '../hooks';
import type { DepartmentNode, Person } from '../structure';
import { DepartmentForm, type DepartmentDraft } from './department-form';

export interface DepartmentItemProps {
  companyId: string;
  node: DepartmentNode;
  headCandidates: readonly Person[];
  canManage: boolean;
  isOnline: boolean;
}

/** One department: name, head, people count; for people managers "Edit" (name and head) and "Delete". */
export function DepartmentItem({ companyId, node, headCandidates, canManage, isOnline }: DepartmentItemProps) {
  const intl = useIntl();
  const dialog = useDialog();
  const writes = useDepartmentWrites(companyId);
  const [isEditing, setEditing] = useState(false);
  const [isDeleting, setDeleting] = useState(false);
  const { department, headName, people } = node;

  async function save(draft: DepartmentDraft) {
    const patch: { name?: string; headUserId?: string | null } = {};
    if (draft.name !== department.name) patch.name = draft.name;
    if (draft.headUserId !== department.headUserId) patch.headUserId = draft.headUserId;
    if (Object.keys(patch).length > 0) await writes.update(department.id, patch);
    setEditing(false);
  }

  async function remove() {
    const confirmed = await dialog.confirm({
      title: intl.formatMessage({ id: 'departments.delete.title', defaultMessage: 'Delete the department?' }),
      content: intl.formatMessage(
        { id: 'departments.delete.text', defaultMessage: '“{name}” will be deleted. A department with people or proposals under consideration cannot be deleted: move them first.' },
        { name: department.name },
      ),
      confirmText: intl.formatMessage({ id: 'departments.delete.confirm', defaultMessage: 'Delete' }),
    });
    if (!confirmed) return;
    setDeleting(true);
    let failure: unknown = null;
    try {
      await writes.remove(department.id);
    } catch (error) {
      failure = error;
    }
    // The button stops spinning before the refusal is read: the request is over, only the dialog is open.
    setDeleting(false);
    if (failure !== null) {
      await dialog.error({
        title: intl.formatMessage({ id: 'departments.delete.refusedTitle', defaultMessage: 'The department was not deleted' }),
        content: failureMessage(intl, failure),
      });
    }
  }

  return (
    <li className="department-item" data-department={department.id}>
      <div className="department-item__summary">
        <div className="department-item__text">
          <span className="department-item__name">{department.name}</span>
          <span className="department-item__meta">
            <span>
              {headName ? (
                <FormattedMessage id="departments.item.head" defaultMessage="Head: {name}" values={{ name: headName }} />
              ) : (
                <FormattedMessage id="departments.item.noHead" defaultMessage="No head" />
              )}
            </span>
            <Link href={`${paths.company.employees(companyId)}?departmentId=${encodeURIComponent(department.id)}`} data-count={people.length}>
              <FormattedMessage id="departments.item.people" defaultMessage="{count, plural, =0 {no people} one {# person} other {# people}}" values={{ count: people.length }} />
            </Link>
          </span>
        </div>
        {canManage && !isEditing && (
          <div className="department-item__actions">
            <Button variant="secondary" onClick={() => setEditing(true)} disabled={!isOnline} data-action="edit-department">
              <FormattedMessage id="departments.item.edit" defaultMessage="Edit" />
            </Button>
            <Button variant="danger" onClick={() => void remove()} loading={isDeleting} disabled={!isOnline} data-action="delete-department">
              <FormattedMessage id="departments.item.delete" defaultMessage="Delete" />
            </Button>
          </div>
        )}
      </div>
      {isEditing && (
        <DepartmentForm
          initial={{ name: department.name, headUserId: department.headUserId }}
          headCandidates={headCandidates}
          isOnline={isOnline}
          submitText={intl.formatMessage({ id: 'departments.form.save', defaultMessage: 'Save' })}
          onSubmit={save}
          onCancel={() => setEditing(false)}
        />
      )}
    </li>
  );
}
