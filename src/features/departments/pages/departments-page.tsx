import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useParams } from 'wouter';
import { paths } from '../../../domain/paths';
import { PageSpinner } from '../../../ui/spinner';
import { Tabs } from '../../../ui/tabs';
import { DepartmentForm, type DepartmentDraft } from '../components/department-form';
import { DepartmentItem } from '../components/department-item';
import { StructureView } from '../components/structure-view';
import { useCanManageDepartments, useDepartmentWrites, useDepartmentsOverview, useIsOnline } from '../hooks';
import '../departments.css';

type View = 'list' | 'structure';

export default function DepartmentsPage() {
  const intl = useIntl();
  const { companyId = '' } = useParams<{ companyId: string }>();
  const overview = useDepartmentsOverview(companyId);
  const canManage = useCanManageDepartments(companyId);
  const isOnline = useIsOnline();
  const writes = useDepartmentWrites(companyId);
  const [view, setView] = useState<View>('list');
  // A new key empties the create form after each department is added.
  const [createRound, setCreateRound] = useState(0);

  if (overview === undefined) return <PageSpinner />;

  async function create(draft: DepartmentDraft) {
    await writes.create({ name: draft.name, headUserId: draft.headUserId });
    setCreateRound((round) => round + 1);
  }

  return (
    <section className="departments-page" aria-labelledby="departments-title">
      <p className="departments-page__back">
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      </p>
      <h1 className="departments-page__title" id="departments-title">
        <FormattedMessage id="departments.list.title" defaultMessage="Departments" />
      </h1>
      <p className="departments-page__links">
        <Link href={paths.company.employees(companyId)}>
          <FormattedMessage id="departments.toEmployees" defaultMessage="Employees" />
        </Link>
      </p>
      {canManage && !isOnline && (
        <p className="departments-note departments-note--warning" data-offline="">
          <FormattedMessage
            id="departments.offline"
            defaultMessage="You are offline: this is the copy on this device. Creating, renaming and deleting departments need a connection."
          />
        </p>
      )}

      <Tabs
        label={intl.formatMessage({ id: 'departments.view.label', defaultMessage: 'How to show the departments' })}
        tabs={[
          { id: 'list', title: intl.formatMessage({ id: 'departments.view.list', defaultMessage: 'List' }) },
          { id: 'structure', title: intl.formatMessage({ id: 'departments.view.structure', defaultMessage: 'Structure' }) },
        ]}
        value={view}
        onChange={(id) => setView(id === 'structure' ? 'structure' : 'list')}
      >
        {view === 'list' ? (
          <div className="departments-list-view">
            {canManage && (
              <section className="departments-card" aria-labelledby="department-create-title" data-section="create-department">
                <h2 className="departments-card__title" id="department-create-title">
                  <FormattedMessage id="departments.create.title" defaultMessage="New department" />
                </h2>
                <DepartmentForm
                  key={createRound}
                  headCandidates={overview.headCandidates}
                  isOnline={isOnline}
                  submitText={intl.formatMessage({ id: 'departments.create.submit', defaultMessage: 'Create' })}
                  onSubmit={create}
                />
              </section>
            )}
            {overview.departments.length === 0 ? (
              <p className="departments-note">
                <FormattedMessage id="departments.list.empty" defaultMessage="No departments yet." />
              </p>
            ) : (
              <ul className="department-list">
                {overview.departments.map((node) => (
                  <DepartmentItem
                    key={node.department.id}
                    companyId={companyId}
                    node={node}
                    headCandidates={overview.headCandidates}
                    canManage={canManage}
                    isOnline={isOnline}
                  />
                ))}
              </ul>
            )}
            {overview.unassigned.length > 0 && (
              <p className="departments-note">
                <FormattedMessage
                  id="departments.list.unassigned"
                  defaultMessage="{count, plural, one {# person has} other {# people have}} no department."
                  values={{ count: overview.unassigned.length }}
                />
              </p>
            )}
          </div>
        ) : (
          <StructureView companyId={companyId} overview={overview} />
        )}
      </Tabs>
    </section>
  );
}
